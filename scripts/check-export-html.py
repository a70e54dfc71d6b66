"""Checks of check-export-html.sh that need a parser: `fragments V1` checks every fragment the daemon wrote
against its document (html5lib in strict mode: any parse error fails), `probe DOM EXPECT_JSON` checks what the
test pages' probe wrote into the DOM Chromium dumped, `names V1` prints every app's names for check-access.py."""
import gzip, json, os, re, sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "web"))
from schema import GOOGLE  # noqa: E402
from visitor import expected_ids  # noqa: E402

LOCALES = {"us": "en-US", "jp": "ja-JP", "de": "de-DE", "ca": "en-CA", "sa": "ar-SA", "il": "he-IL"}
RIGHT_TO_LEFT = {"ar", "he", "fa", "ur"}


def html_text(value):
    """`value` as HTML text carries it (SPEC §20): no NUL, C0 control but TAB/LF/CR, DEL, C1 control or
    noncharacter; None stays None."""
    if value is None:
        return None
    def allowed(c):
        code = ord(c)
        if code < 0x20:
            return c in "\t\n\r"
        return not (0x7F <= code <= 0x9F or 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE)
    return "".join(c for c in value if allowed(c))


def parse(path):
    import html5lib
    text = open(path, encoding="utf-8").read()
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    try:
        return parser.parseFragment(text), text
    except html5lib.html5parser.ParseError as error:
        raise AssertionError(f"{path}: HTML5 parse error: {error}") from None


def texts(node):
    return "".join(node.itertext())


def isolated(node, expected, where):
    """SPEC §19: `node` holds one `<bdi>` and nothing else, the bdi exactly `expected` as text and no element, so
    no control character in it reaches the text around it."""
    assert node is not None, f"{where}: missing"
    assert len(node) == 1 and node[0].tag == "bdi" and not (node.text or "") and not (node[0].tail or ""), \
        f"{where}: not one <bdi> ({[child.tag for child in node]}, {texts(node)!r})"
    bdi = node[0]
    assert len(bdi) == 0 and (bdi.text or "") == expected, f"{where}: holds {texts(bdi)!r}, expected {expected!r}"


def accessible_name(document, name, label):
    """The row's accessible name: the document's app_link label filled in one pass."""
    template = document["labels"]["app_link"]
    return re.sub(r"\{(name|store)\}", lambda m: name if m.group(1) == "name" else label, template)


def check_fragment(path, document):
    apps = document["apps"]
    if not apps:
        assert os.path.getsize(path) == 0, f"{path}: an empty roster must give an empty file"
        return 0
    tree, text = parse(path)
    sections = tree.findall("section")
    assert len(sections) == 1 and len(tree) == 1, f"{path}: one <section> (+ nothing else) expected"
    section = sections[0]
    language = document.get("language")
    lang = f"{language}-{document['storefront'].upper()}" if language else LOCALES[document["storefront"]]
    assert document["locale"] == lang, f"{path}: the document's locale is {document['locale']!r}, expected {lang!r}"
    expected = {"class": "showcase", "lang": lang, "data-host": document["host"],
                "data-storefront": document["storefront"], "data-platform": document["platform"],
                "dir": "rtl" if lang.split("-")[0] in RIGHT_TO_LEFT else None}
    for key, value in expected.items():
        assert section.get(key) == value, f"{path}: section {key}={section.get(key)!r}, expected {value!r}"
    items = section.findall("ul/li")
    assert [li.get("data-app-id") for li in items] == [str(app["id"]) for app in apps], f"{path}: order"
    label = "Mac App Store" if document["platform"] == "macos" else "App Store"
    for li, app in zip(items, apps):
        links = li.findall(".//a")
        assert len(links) == 1 and len(li) == 1, f"{path}: {app['id']}: one link wrapping the row"
        a = links[0]
        assert a.get("href") == app["storeUrl"], f"{path}: href of {app['id']}"
        assert a.get("aria-label") == html_text(accessible_name(document, app["name"], label)), \
            f"{path}: accessible name {a.get('aria-label')!r}"
        img = a.find("img")
        assert img is not None and img.get("alt") == "" and img.get("loading") == "lazy", f"{path}: img"
        assert img.get("width") == "64" and img.get("height") == "64", f"{path}: img size"
        assert img.get("src", "").startswith("https://") or img.get("src", "").startswith("/showcase/v1/icons/")
        spans = {span.get("class"): texts(span) for span in a.iter("span")}
        assert spans.get("showcase-name") == html_text(app["name"]), f"{path}: name {spans.get('showcase-name')!r}"
        assert spans.get("showcase-tagline") == html_text(app.get("tagline")), f"{path}: tagline of {app['id']}"
        assert spans.get("showcase-price") == html_text(app.get("formattedPrice")), f"{path}: price of {app['id']}"
        assert spans.get("showcase-badge") == label
        # Each upstream or overlay text in its own isolate; the badge (and the price) outside the name's.
        by_class = {span.get("class"): span for span in a.iter("span")}
        isolated(by_class.get("showcase-name"), html_text(app["name"]), f"{path}: name of {app['id']}")
        if app.get("tagline") and app["tagline"].strip():
            isolated(by_class.get("showcase-tagline"), html_text(app["tagline"]), f"{path}: tagline of {app['id']}")
        if app.get("formattedPrice"):
            isolated(by_class.get("showcase-price"), html_text(app["formattedPrice"]), f"{path}: price of {app['id']}")
        meta = by_class.get("showcase-meta")
        assert meta is not None and by_class["showcase-badge"] in list(meta), f"{path}: badge outside the meta line"
        assert not a.findall(".//b") and not a.findall(".//script"), f"{path}: markup from text"
    scripts = section.findall("script")
    assert len(scripts) == 1 and scripts[0].get("type") == "application/ld+json", f"{path}: one JSON-LD script"
    raw = scripts[0].text
    assert "<" not in raw and ">" not in raw and "&" not in raw, f"{path}: <, > or & unescaped in JSON-LD"
    data = json.loads(raw)
    assert data["@context"] == "https://schema.org" and data["@type"] == "ItemList", f"{path}: ItemList"
    elements = data["itemListElement"]
    assert [e["position"] for e in elements] == list(range(1, len(apps) + 1)), f"{path}: positions"
    categories = 0
    for element, app in zip(elements, apps):
        assert element["@type"] == "ListItem"
        item = element["item"]
        assert item["@type"] == "SoftwareApplication" and item["name"] == html_text(app["name"]), f"{path}: name"
        assert item["url"] == app["storeUrl"] and item["image"].startswith("https://"), f"{path}: url, image"
        assert item["operatingSystem"] == ("macOS" if document["platform"] == "macos" else "iOS")
        offer = item["offers"]
        assert offer["@type"] == "Offer", f"{path}: offers"
        assert isinstance(offer["price"], (int, float)) and not isinstance(offer["price"], bool), f"{path}: price"
        assert offer["price"] == app["price"] and offer["priceCurrency"] == app["currency"], f"{path}: offer"
        if "applicationCategory" in item:
            assert item["applicationCategory"] in GOOGLE, f"{path}: {item['applicationCategory']} not Google's"
            categories += 1
        assert item.get("description") == html_text(app.get("tagline")), f"{path}: description"
        assert "aggregateRating" not in item and "review" not in item, f"{path}: ratings"
    assert categories > 0, f"{path}: no app has an applicationCategory (primaryGenreId lost?)"
    return len(apps)


def check_email(path, document):
    apps = document["apps"]
    if not apps:
        assert os.path.getsize(path) == 0, f"{path}: an empty roster must give an empty file"
        return
    tree, text = parse(path)
    tables = tree.findall("table")
    assert len(tables) == 1 and tables[0].get("role") == "presentation", f"{path}: one presentation table"
    assert len(tables[0].findall(".//tr")) == len(apps), f"{path}: one row per app"
    lang = document["locale"]
    assert tables[0].get("lang") == lang, f"{path}: lang {tables[0].get('lang')!r}"
    rtl = lang.split("-")[0] in RIGHT_TO_LEFT
    assert tables[0].get("dir") == ("rtl" if rtl else None), f"{path}: dir {tables[0].get('dir')!r}"
    label = "Mac App Store" if document["platform"] == "macos" else "App Store"
    for tr, app in zip(tables[0].findall(".//tr"), apps):
        # Every link of the row (the icon's, whose image is alt="", and the text's) carries the row's accessible
        # name; the text link holds the isolates.
        links = list(tr.iter("a"))
        named = html_text(accessible_name(document, app["name"], label))
        assert links and all(a.get("aria-label") == named for a in links), \
            f"{path}: {app['id']}: links named {[a.get('aria-label') for a in links]!r}, expected {named!r}"
        link = [a for a in links if a.find(".//span") is not None]
        assert len(link) == 1, f"{path}: {app['id']}: one text link"
        spans = [span for span in link[0].iter("span") if span.get("dir") == "auto"]
        wanted = [app["name"], app.get("tagline") if (app.get("tagline") or "").strip() else None,
                  app.get("formattedPrice") or None]
        wanted = [html_text(text) for text in wanted if text]
        assert [span.text or "" for span in spans] == wanted and all(len(span) == 0 for span in spans), \
            f"{path}: isolates of {app['id']}: {[texts(span) for span in spans]!r}, expected {wanted!r}"
    for node in tree.iter():
        assert node.tag not in ("script", "style", "link"), f"{path}: <{node.tag}>"
        assert "class" not in node.attrib, f"{path}: class on <{node.tag}>"
        for attribute in ("href", "src"):
            if attribute in node.attrib:
                assert node.get(attribute).startswith("https://"), f"{path}: {attribute}={node.get(attribute)}"
        if node.tag == "img":
            assert node.get("width") and node.get("height"), f"{path}: an image without width/height"
            assert node.get("alt") == "", f"{path}: an image whose alt is {node.get('alt')!r}, not \"\" (SPEC §19)"
        if node.tag == "a":  # SPEC §19: every link's accessible name starts with its app's name
            app = next((app for app in apps if re.search(rf"/id{app['id']}(\D|$)", node.get("href", ""))), None)
            assert app, f"{path}: a link to {node.get('href')} names no app of the document"
            name = " ".join((node.get("aria-label") or texts(node)).split())
            assert name.startswith(" ".join(html_text(app["name"]).split())), \
                f"{path}: a link to {app['id']} is named {name!r}, not after the app {app['name']!r}"
        if node.tag in ("table", "td", "a", "span", "img"):
            assert node.get("style"), f"{path}: <{node.tag}> without an inline style"


def fragments(v1):
    documents = rendered = 0
    for directory, _, names in os.walk(v1):
        for name in sorted(names):
            if not name.endswith(".json") or name == "index.json":
                continue
            path = os.path.join(directory, name)
            document = json.load(open(path, encoding="utf-8"))
            stem = path[: -len(".json")]
            for suffix in (".html", ".email.html"):
                assert os.path.exists(stem + suffix), f"no {stem + suffix}"
                with gzip.open(stem + suffix + ".gz") as packed:
                    assert packed.read() == open(stem + suffix, "rb").read(), f"{stem + suffix}.gz differs"
            rendered += check_fragment(stem + ".html", document)
            check_email(stem + ".email.html", document)
            documents += 1
    print(f"  {documents} documents: every .html and .email.html parses without error; {rendered} rows checked")
    return documents


def names(v1):
    """{trackId: [every name it has in a document]}, for scripts/check-access.py's --names (the email variant's
    links have no name on their page to compare with)."""
    found = {}
    for directory, _, files in os.walk(v1):
        for name in files:
            if name.endswith(".json") and name != "index.json":
                for app in json.load(open(os.path.join(directory, name), encoding="utf-8"))["apps"]:
                    found.setdefault(str(app["id"]), set()).add(html_text(app["name"]))
    json.dump({key: sorted(value) for key, value in found.items()}, sys.stdout, ensure_ascii=False)


def probe(dom_path, expected):
    """What the page showed must match `expected` (JSON): a key "ids" may be "@DOCUMENT DEVICE OS" (computed)."""
    seen = probed(dom_path)
    expected = json.loads(expected)
    if isinstance(expected.get("ids"), str) and expected["ids"].startswith("@"):
        expected["ids"] = expected_ids(*(expected["ids"][1:].split(" ") + ["", ""])[:3])
        assert expected["ids"], "no app to expect: the check would prove nothing"
    for key, value in expected.items():
        assert seen.get(key) == value, f"{dom_path}: {key} is {seen.get(key)!r}, expected {value!r}"
    if seen.get("ids"):
        assert seen["linksPerRow"] == [1], f"{dom_path}: rows with other than one link: {seen['linksPerRow']}"
        assert seen["minRowHeight"] >= 44, f"{dom_path}: a row is {seen['minRowHeight']} px tall, under 44"
        assert seen["badgeBesideIcon"], f"{dom_path}: the store label is not beside the icon"
        assert seen["focusOutline"] not in ("none", ""), f"{dom_path}: no visible focus ({seen['focusOutline']})"
        assert seen["isolated"], f"{dom_path}: a name, tagline or price is not a bidi isolate"
    summary = {key: seen.get(key) for key in ("lang", "dir", "state", "visible", "dark", "textColor")}
    print(f"  {os.path.basename(dom_path)}: {len(seen.get('ids') or [])} rows, {json.dumps(summary, ensure_ascii=False)}")


def probed(dom_path):
    import html
    dom = open(dom_path, encoding="utf-8").read()
    found = re.search(r'<pre id="probe"[^>]*>(.*?)</pre>', dom, re.S)
    assert found, f"{dom_path}: the probe wrote nothing (the page did not finish?)"
    return json.loads(html.unescape(found.group(1)))


def same_host(dom_path, control_path):
    seen, control = probed(dom_path), probed(control_path)
    assert seen["host"] == control["host"], f"{dom_path}: the host page's computed styles changed: " + ", ".join(
        f"{element} {key} {control['host'][element][key]!r} -> {value!r}"
        for element, styles in seen["host"].items() for key, value in styles.items()
        if control["host"].get(element, {}).get(key) != value)


if __name__ == "__main__":
    try:
        if sys.argv[1] == "fragments":
            fragments(sys.argv[2])
        elif sys.argv[1] == "names":
            names(sys.argv[2])
        elif sys.argv[1] == "probe":
            probe(sys.argv[2], sys.argv[3])
        elif sys.argv[1] == "same-host":
            same_host(sys.argv[2], sys.argv[3])
    except AssertionError as error:
        print(f"  {error}", file=sys.stderr)
        sys.exit(1)
