"""The site of SPEC §18 as validators and search engines read it, run by scripts/check-site.sh in .build/access-venv:

    check-site.py --vnu VNU_JAR [--v1 V1] SITE URL

SITE is <export.directory>/site, URL its `export.site.url`. Every finding is printed; exit status 1 if any.
  - the W3C Nu HTML Checker (vnu.jar, one JVM for every page and showcase.css): no error; warnings are printed;
  - each page: <html lang>, <title>, <meta name="description">, <link rel="canonical"> its own URL, Open Graph
    og:title, og:type, og:url (its URL), og:locale and an absolute og:image when there is one (extruct), links
    between pages relative and to pages that exist;
  - JSON-LD, read back with extruct: a developer page (<storefront>/[L/]index.html) has an ItemList of
    ListItems holding SoftwareApplications, an app page (<storefront>/[L/]<trackId>/index.html) one top-level
    SoftwareApplication; each with SPEC §14's fields (name, url, image, operatingSystem, offers with a numeric
    price and priceCurrency, applicationCategory from Google's list, no ratings); with --v1 (the export tree,
    export.html), an app's applicationCategory, name, operatingSystem and offers equal its fragment's in that
    storefront and language, so a category is there whenever the genre has one;
  - hreflang: every page lists itself, x-default, and alternates that are pages listing it back;
  - the sitemap (sitemap.xml, or a sitemap index and its sitemaps): every <loc> and xhtml:link alternate is a
    page, every page is in it once, each with a lastmod.
`pages SITE URL` prints every page's URL relative to URL (for check-access.py)."""
import json, os, re, subprocess, sys
from urllib.parse import urljoin, urlsplit

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "web"))
from schema import GOOGLE  # noqa: E402

HREFLANG = re.compile(r"^(x-default|[a-z]{2,3}(-[A-Z][a-z]{3})?(-[A-Z]{2})?)$")
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"
LASTMOD = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$")


class Site:
    """The pages under SITE and the URLs they are served at under URL."""

    def __init__(self, root, url):
        self.root, self.url = root.rstrip("/"), url if url.endswith("/") else url + "/"
        self.pages = sorted(os.path.relpath(os.path.join(d, n), self.root)
                            for d, _, names in os.walk(self.root) for n in names if n.endswith(".html"))

    def url_of(self, page):
        return self.url + re.sub(r"(^|/)index\.html$", r"\1", page)

    def page_of(self, url):
        """The page file (relative to SITE) URL names, or None when it is outside the site or no such file."""
        url = url.split("#")[0].split("?")[0]
        if not url.startswith(self.url):
            return None
        path = url[len(self.url):]
        if path == "" or path.endswith("/"):
            path += "index.html"
        return path if os.path.isfile(os.path.join(self.root, path)) else None

    @staticmethod
    def kind(page):
        """developer, app, or other (support, privacy) from the path: <storefront>/[L/][<trackId>/…]index.html."""
        parts = page.split("/")[:-1]
        if parts and re.fullmatch(r"[a-z]{2}", parts[0]):
            rest = parts[1:]
            if rest and not rest[0].isdigit():
                rest = rest[1:]  # a non-default language
            if not rest:
                return "developer"
            if len(rest) == 1 and rest[0].isdigit():
                return "app"
        return "other"


def vnu(jar, site, problems):
    """The Nu HTML Checker over every page and the stylesheet, in one JVM."""
    files = [os.path.join(site.root, page) for page in site.pages]
    files += [os.path.join(site.root, n) for n in os.listdir(site.root) if n.endswith(".css")]
    run = subprocess.run(["java", "-Xss4m", "-jar", jar, "--format", "json", "--exit-zero-always",
                          "--also-check-css", *files], capture_output=True, text=True, timeout=600)
    try:
        messages = json.loads(run.stderr or run.stdout)["messages"]
    except (ValueError, KeyError):
        problems.append(f"vnu.jar: no JSON report (exit {run.returncode}): {(run.stderr or run.stdout)[:500]}")
        return
    errors, warnings = 0, {}
    for message in messages:
        where = os.path.relpath(urlsplit(message.get("url", "")).path or "?", site.root)
        line = f"{where}:{message.get('lastLine', '?')}:{message.get('firstColumn', '?')}: {message.get('message')}"
        if message.get("type") == "info":
            warnings.setdefault(message.get("message"), []).append(line)
        else:
            errors += 1
            problems.append(f"vnu {message.get('type')}: {line}")
    for text, lines in warnings.items():  # each warning once, with where it is first and how often
        more = f" (and {len(lines) - 1} more like it)" if len(lines) > 1 else ""
        print(f"  vnu warning: {lines[0]}{more}")
    print(f"  vnu.jar: {len(files)} files, {errors} errors, {sum(map(len, warnings.values()))} warnings")


def fragment_items(v1):
    """{(storefront, language or None, trackId): SoftwareApplication} from every fragment in the export tree."""
    items = {}
    if not v1:
        return items
    for directory, _, names in os.walk(v1):
        for name in names:
            if not name.endswith(".html") or name.endswith(".email.html") or name == "banner.html":
                continue
            parts = os.path.relpath(directory, v1).split("/")  # host, storefront[, language]
            if len(parts) not in (2, 3):
                continue
            text = open(os.path.join(directory, name), encoding="utf-8").read()
            found = re.search(r'<script type="application/ld\+json">(.*?)</script>', text, re.S)
            if not found:
                continue
            for element in json.loads(found.group(1)).get("itemListElement", []):
                item = element["item"]
                track = re.search(r"/id(\d+)", item["url"]).group(1)
                items[(parts[1], parts[2] if len(parts) == 3 else None, track)] = item
    return items


def check_app(item, where, problems):
    """SPEC §14's fields of one SoftwareApplication."""
    def need(condition, what):
        if not condition:
            problems.append(f"{where}: JSON-LD SoftwareApplication {what} (in {json.dumps(item)[:200]})")
    need(item.get("@type") == "SoftwareApplication", "is not a SoftwareApplication")
    need(isinstance(item.get("name"), str) and item["name"].strip(), "has no name")
    need(isinstance(item.get("url"), str) and item["url"].startswith("https://"), "has no https url")
    need(isinstance(item.get("image"), str) and item["image"].startswith("https://"), "has no https image")
    need(item.get("operatingSystem") in ("iOS", "macOS"), "has no operatingSystem iOS or macOS")
    offer = item.get("offers")
    need(isinstance(offer, dict) and offer.get("@type") == "Offer", "has no Offer")
    if isinstance(offer, dict):
        price = offer.get("price")
        need(isinstance(price, (int, float)) and not isinstance(price, bool), f"offer's price {price!r} is not a number")
        need(isinstance(offer.get("priceCurrency"), str) and re.fullmatch(r"[A-Z]{3}", offer["priceCurrency"]),
             f"offer's priceCurrency {offer.get('priceCurrency')!r} is not a currency code")
    if "applicationCategory" in item:
        need(item["applicationCategory"] in GOOGLE, f"applicationCategory {item['applicationCategory']!r} is not"
             " on Google's list")
    need("aggregateRating" not in item and "review" not in item, "has ratings")


def language_of(page):
    """(storefront, language or None) of a page from its path: <storefront>/[L/]…"""
    parts = page.split("/")[:-1]
    return parts[0], parts[1] if len(parts) > 1 and not parts[1].isdigit() else None


def check_page(site, page, fragments, problems, alternates, compared):
    import extruct
    from lxml import html as lxml_html
    where = page
    url = site.url_of(page)
    raw = open(os.path.join(site.root, page), "rb").read()
    tree = lxml_html.fromstring(raw)
    def need(condition, what):
        if not condition:
            problems.append(f"{where}: {what}")
    root = tree.getroottree().getroot()
    need(root.get("lang"), "<html> has no lang")
    titles = tree.findall(".//head/title")
    need(len(titles) == 1 and (titles[0].text or "").strip(), "no <title>")
    descriptions = tree.xpath('//head/meta[@name="description"]/@content')
    need(len(descriptions) == 1 and descriptions[0].strip(), "no <meta name=description>")
    canonical = tree.xpath('//head/link[@rel="canonical"]/@href')
    need(canonical == [url], f"canonical {canonical} is not its own URL {url}")
    data = extruct.extract(raw, base_url=url, syntaxes=["json-ld", "opengraph"])
    og = {}
    for block in data["opengraph"]:
        og.update({k: v for k, v in block["properties"] if k.startswith("og:")})
    for key in ("og:title", "og:type", "og:url", "og:locale"):
        need(og.get(key), f"no {key}")
    need(og.get("og:url") in (None, url), f"og:url {og.get('og:url')} is not its URL {url}")
    need("og:image" not in og or str(og["og:image"]).startswith("https://"), f"og:image {og.get('og:image')} is not"
         " an absolute https URL")
    # Links: relative between pages, to pages that exist.
    for href in tree.xpath("//a/@href"):
        if href.startswith(site.url) or href.startswith(site.url.rstrip("/")):
            problems.append(f"{where}: link {href} to a page of the site is absolute (links between pages are relative)")
        elif not urlsplit(href).scheme and not href.startswith("//") and not href.startswith("#"):
            if site.page_of(urljoin(url, href)) is None:
                problems.append(f"{where}: link {href} names no page")
    # JSON-LD.
    top = data["json-ld"]
    kind = site.kind(page)
    apps = [item for item in top if "SoftwareApplication" in str(item.get("@type"))]
    lists = [item for item in top if item.get("@type") == "ItemList"]
    found = []
    for itemlist in lists:
        elements = itemlist.get("itemListElement", [])
        need(elements, "an ItemList without itemListElement")
        for position, element in enumerate(elements, 1):
            need(element.get("@type") == "ListItem" and element.get("position") == position,
                 f"itemListElement {position} is not a ListItem at position {position}")
            check_app(element.get("item", {}), where, problems)
    if kind == "developer":
        need(lists, "the developer page has no JSON-LD ItemList")
    elif kind == "app":
        need(len(apps) == 1, f"the app page has {len(apps)} top-level JSON-LD SoftwareApplication, not one")
        for item in apps:
            check_app(item, where, problems)
            found.append(item)
        track = page.split("/")[-2]
        for item in apps:
            need(f"/id{track}" in str(item.get("url")), f"its SoftwareApplication's url {item.get('url')} is not"
                 f" app {track}'s")
    storefront, language = language_of(page)
    for item in found:
        track = re.search(r"/id(\d+)", str(item.get("url")))
        fragment = track and fragments.get((storefront, language, track.group(1)))
        if fragments and fragment:
            compared.append(page)
            for key in ("name", "operatingSystem", "offers", "applicationCategory"):
                need(item.get(key) == fragment.get(key), f"JSON-LD {key} {item.get(key)!r} differs from its"
                     f" fragment's {fragment.get(key)!r} (v1 {storefront}{'/' + language if language else ''})")
    # hreflang alternates, checked across pages below.
    links = {}
    for link in tree.xpath('//head/link[@rel="alternate"][@hreflang]'):
        code, href = link.get("hreflang"), link.get("href")
        need(HREFLANG.match(code or ""), f"hreflang {code!r} is not a language-region code or x-default")
        need(code not in links or links[code] == href, f"hreflang {code} names two pages")
        links[code] = href
    alternates[page] = links
    return kind


def check_alternates(site, alternates, problems):
    for page, links in alternates.items():
        url = site.url_of(page)
        if not links:
            problems.append(f"{page}: no <link rel=alternate hreflang>")
            continue
        if "x-default" not in links:
            problems.append(f"{page}: no hreflang x-default")
        if url not in links.values():
            problems.append(f"{page}: its alternates do not list itself ({url})")
        for code, href in links.items():
            target = site.page_of(href)
            if target is None:
                problems.append(f"{page}: hreflang {code} names {href}, which is not a page")
            elif code != "x-default" and url not in [href for other, href in alternates.get(target, {}).items()
                                                     if other != "x-default"]:
                problems.append(f"{page}: hreflang {code} names {target}, which does not name it back")


def check_sitemap(site, problems):
    import xml.etree.ElementTree as ET
    path = os.path.join(site.root, "sitemap.xml")
    if not os.path.isfile(path):
        problems.append("no sitemap.xml")
        return
    documents, locs = [ET.parse(path).getroot()], []
    if documents[0].tag == SITEMAP + "sitemapindex":
        documents = []
        for loc in ET.parse(path).getroot().iter(SITEMAP + "loc"):
            name = loc.text.strip()[len(site.url):] if loc.text.strip().startswith(site.url) else None
            if not name or not os.path.isfile(os.path.join(site.root, name)):
                problems.append(f"sitemap index: {loc.text} is not a sitemap file of the site")
            else:
                documents.append(ET.parse(os.path.join(site.root, name)).getroot())
    for document in documents:
        for entry in document.iter(SITEMAP + "url"):
            loc = (entry.findtext(SITEMAP + "loc") or "").strip()
            locs.append(loc)
            if site.page_of(loc) is None or site.url_of(site.page_of(loc)) != loc:
                problems.append(f"sitemap: <loc>{loc}</loc> is not a page's URL")
            lastmod = (entry.findtext(SITEMAP + "lastmod") or "").strip()
            if not LASTMOD.match(lastmod):
                problems.append(f"sitemap: {loc}: lastmod {lastmod!r} is not a W3C date")
            for link in entry.iter(XHTML + "link"):
                if site.page_of(link.get("href", "")) is None:
                    problems.append(f"sitemap: {loc}: alternate {link.get('hreflang')} {link.get('href')} is not a"
                                    " page")
    for loc in {loc for loc in locs if locs.count(loc) > 1}:
        problems.append(f"sitemap: {loc} is listed {locs.count(loc)} times")
    for page in site.pages:
        if site.url_of(page) not in locs:
            problems.append(f"sitemap: {page} ({site.url_of(page)}) is not in it")
    print(f"  sitemap: {len(locs)} URLs, {len(documents)} sitemap files")


def main():
    args = sys.argv[1:]
    if args[:1] == ["pages"]:
        site = Site(args[1], args[2])
        for page in site.pages:
            print(site.url_of(page)[len(site.url):])
        return
    jar = v1 = None
    while args and args[0].startswith("--"):
        if args[0] == "--vnu":
            jar = args[1]
        elif args[0] == "--v1":
            v1 = args[1]
        args = args[2:]
    if len(args) != 2 or not jar:
        sys.exit(__doc__.split("\n\n")[1])
    site = Site(*args)
    if not site.pages:
        sys.exit(f"check-site: no page under {site.root}")
    problems, alternates, kinds, compared = [], {}, {}, []
    vnu(jar, site, problems)
    fragments = fragment_items(v1)
    for page in site.pages:
        kind = check_page(site, page, fragments, problems, alternates, compared)
        kinds[kind] = kinds.get(kind, 0) + 1
    check_alternates(site, alternates, problems)
    check_sitemap(site, problems)
    print(f"  {len(site.pages)} pages: " + ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items())))
    if v1:
        print(f"  {len(compared)} app pages' JSON-LD equal to their fragment's")
        if not compared:
            problems.append(f"no app page's SoftwareApplication matched a fragment under {v1} (export.html off?)")
    for problem in problems:
        print(f"  {problem}", file=sys.stderr)
    if problems:
        print(f"  {len(problems)} findings", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
