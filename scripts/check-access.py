"""SPEC §19 "Access" in a real browser, run by scripts/check-export-html.sh and scripts/check-site.sh:

    /usr/bin/python3 scripts/check-access.py --axe AXE_JS --shots DIR [--names NAMES_JSON] [--own] URL…

Debian's Chromium, driven through Debian's chromedriver by Debian's python3-selenium (one browser for every
page), loads each URL at a phone (390×844, an iPhone's user agent) and a desktop (1280×900, a Mac's) width, in
light and dark mode (prefers-color-scheme through CDP's Emulation.setEmulatedMedia), and on each:
  - injects axe-core's axe.min.js (AXE_JS: the copy PyPI's axe-playwright-python ships) and runs the WCAG 2.0
    and 2.1 A and AA rules (tags wcag2a, wcag2aa, wcag21a, wcag21aa): every violation fails, listed by rule,
    node, page and mode;
  - checks that the page does not scroll sideways (WCAG 2.1 reflow, which axe-core leaves out);
  - checks that every app link (a link inside a [data-app-id] row, or to an App Store product page) has an
    accessible name (axe's own computation) that starts with the app's name: the row's .showcase-name, the
    page's JSON-LD SoftwareApplication with that id in its url, or NAMES_JSON ({"<trackId>": [names]});
  - presses Tab until the first app link (with --own, the first link: the page is all ours) has focus, then
    focuses each app link (every link) in turn: each takes keyboard focus and shows a visible focus indicator
    (an outline or box-shadow it does not have unfocused);
  - saves a full-page screenshot to DIR/<page>-<phone|desktop>-<light|dark>.png, for a person to look at.
Pages are served by nginx on loopback; Chromium resolves no other name (--host-resolver-rules), so icons on
Apple's CDN fail to load and nothing leaves the machine. Exit status 1 with every finding listed, else 0."""
import argparse, json, os, re, shutil, sys, tempfile, time

DEVICES = {
    "phone": (390, 844, True, "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
              "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"),
    "desktop": (1280, 900, False, "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 "
                "(KHTML, like Gecko) Version/17.4 Safari/605.1.15"),
}
SCHEMES = ("light", "dark")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

# Waits until the page settled: loaded, and every widget block (section.showcase[data-src]) has its data-state.
SETTLED = """return document.readyState === "complete" &&
  !document.querySelector("section.showcase[data-src]:not([data-state])");"""

RUN_AXE = """const done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: "tag", values: arguments[0]}, resultTypes: ["violations"]})
  .then(r => done({violations: r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary}))})),
    incomplete: r.incomplete.map(v => v.id)}))
  .catch(e => done({error: String(e)}));"""

# The app links and the names they must start with, by axe's accessible-name computation.
APP_LINKS = """
const names = {};
const add = (id, name) => { if (id && name) (names[id] = names[id] || []).push(name.trim()); };
document.querySelectorAll("[data-app-id]").forEach(row => {
  const name = row.querySelector(".showcase-name");
  add(row.getAttribute("data-app-id"), name && name.textContent.replace(/\s+/g, " "));
});
const visit = node => {
  if (Array.isArray(node)) { node.forEach(visit); return; }
  if (!node || typeof node !== "object") return;
  const type = [].concat(node["@type"] || []);
  if (type.includes("SoftwareApplication") && typeof node.url === "string") {
    const id = /\\/id(\\d+)/.exec(node.url);
    add(id && id[1], typeof node.name === "string" && node.name.replace(/\s+/g, " "));
  }
  Object.values(node).forEach(visit);
};
document.querySelectorAll('script[type="application/ld+json"]').forEach(s => {
  try { visit(JSON.parse(s.textContent)); } catch (e) { add("json-ld", "unparsable: " + e); }
});
const store = /^https:\\/\\/apps\\.apple\\.com\\/.*\\/id(\\d+)/;
axe.setup(document);
const links = [];
document.querySelectorAll("a[href]").forEach((a, index) => {
  const row = a.closest("[data-app-id]");
  const href = store.exec(a.href);
  const id = row ? row.getAttribute("data-app-id") : href && href[1];
  if (!id) return;
  const visible = a.getClientRects().length > 0;
  links.push({index, id, href: a.getAttribute("href"), visible,
    accessibleName: axe.commons.text.accessibleText(a).replace(/\s+/g, " ").trim()});
});
axe.teardown();
return {names, links};"""

# Each link's index among a[href] and its focus-relevant computed style.
LINK_STYLES = """
const pick = s => ({outline: s.outlineStyle === "none" ? "none" : s.outlineStyle + " " + s.outlineWidth + " " +
    s.outlineColor, shadow: s.boxShadow});
return Array.from(document.querySelectorAll("a[href]")).map(a => pick(getComputedStyle(a)));"""
ACTIVE = """return Array.from(document.querySelectorAll("a[href]")).indexOf(document.activeElement);"""
# Focuses each link of arguments[0] (indices among a[href]) from script, once the keyboard has moved focus (so
# Chromium shows focus as it would for the keyboard), and reads its style.
FOCUSED = """
const all = Array.from(document.querySelectorAll("a[href]"));
const seen = arguments[0].map(index => {
  const a = all[index];
  a.focus({preventScroll: true});
  const s = getComputedStyle(a);
  return {index, focused: document.activeElement === a, focusVisible: a.matches(":focus-visible"),
    tabIndex: a.tabIndex, inert: !!a.closest("[inert]"),
    outline: s.outlineStyle === "none" ? "none" : s.outlineStyle + " " + s.outlineWidth + " " + s.outlineColor,
    width: parseFloat(s.outlineWidth) || 0, shadow: s.boxShadow};
});
if (document.activeElement) document.activeElement.blur();
window.scrollTo(0, 0);
return seen;"""


def browser(profile):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    # As root Chromium needs --no-sandbox; a fresh profile per run; no name but 127.0.0.1 resolves.
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                 f"--user-data-dir={profile}", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"):
        options.add_argument(flag)
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    return driver


def settle(driver, url):
    deadline = time.monotonic() + 15
    while not driver.execute_script(SETTLED):
        if time.monotonic() > deadline:
            raise AssertionError(f"{url}: did not settle in 15 s (a widget block without data-state?)")
        time.sleep(0.05)


def shot_name(url, device, scheme):
    path = re.sub(r"^https?://[^/]+/", "", url).split("?")[0]
    path = re.sub(r"(^|/)index\.html$", r"\1", path)
    path = re.sub(r"\.html$", "", path).strip("/") or "index"
    return f"{re.sub(r'[^A-Za-z0-9.-]+', '_', path)}-{device}-{scheme}.png"


def screenshot(driver, path):
    import base64
    metrics = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
    size = metrics.get("cssContentSize") or metrics["contentSize"]
    width = metrics["cssLayoutViewport"]["clientWidth"]
    height = min(max(size["height"], metrics["cssLayoutViewport"]["clientHeight"]), 16000)
    data = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})["data"]
    with open(path, "wb") as out:
        out.write(base64.b64decode(data))


def app_links(driver, where, extra_names):
    """Findings for app links whose accessible name does not start with the app's name."""
    found = driver.execute_script(APP_LINKS)
    names = found["names"]
    problems = []
    if "json-ld" in names:
        problems.append(f"{where}: a JSON-LD block does not parse ({names['json-ld'][0]})")
    for link in found["links"]:
        expected = names.get(link["id"]) or [" ".join(name.split()) for name in extra_names.get(link["id"], [])]
        if not expected:
            problems.append(f"{where}: link {link['href']}: no name known for app {link['id']} (no row, JSON-LD"
                            " or --names entry)")
        elif not any(link["accessibleName"].startswith(name) for name in expected):
            problems.append(f"{where}: link {link['href']}: accessible name {link['accessibleName']!r} does not start"
                            f" with the app's name {expected[0]!r}")
    return found["links"], problems


def focus(driver, where, wanted):
    """Findings for links in `wanted` ({index among a[href]: href}) that the keyboard cannot focus or that look
    the same focused as unfocused. Tab is pressed until the first of them has focus (the keyboard reaches it);
    then each is focused in turn from script, which Chromium shows as keyboard focus once a key moved it, and its
    outline and box-shadow are compared with its unfocused ones."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    if not wanted:
        return []
    driver.execute_script("window.scrollTo(0, 0); if (document.activeElement) document.activeElement.blur();")
    resting = driver.execute_script(LINK_STYLES)
    problems = []
    for _ in range(len(resting) + 20):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        if driver.execute_script(ACTIVE) in wanted:
            break
    else:
        problems.append(f"{where}: Tab never reaches a link of ours (the first is #{min(wanted)}, {wanted[min(wanted)]})")
    for seen in driver.execute_script(FOCUSED, sorted(wanted)):
        index, before = seen["index"], resting[seen["index"]]
        link = f"link #{index} ({wanted[index]})"
        if not seen["focused"] or seen["tabIndex"] < 0 or seen["inert"]:
            problems.append(f"{where}: {link} cannot take keyboard focus (tabindex {seen['tabIndex']},"
                            f" inert {seen['inert']})")
            continue
        if not seen["focusVisible"]:
            problems.append(f"{where}: {link} does not match :focus-visible when focused after a key press")
        outline = seen["outline"] != "none" and seen["width"] >= 1 and seen["outline"] != before["outline"]
        shadow = seen["shadow"] not in ("none", "") and seen["shadow"] != before["shadow"]
        if not (outline or shadow):
            problems.append(f"{where}: {link} shows no focus indicator when focused (outline {seen['outline']},"
                            f" box-shadow {seen['shadow']})")
    return problems


def check_rendering(driver, where, extra_names, own, incomplete, shot):
    """The findings on the page as it is shown now: axe-core's, the app links' names, focus; and its screenshot."""
    result = driver.execute_async_script(RUN_AXE, TAGS)
    if "error" in result:
        raise AssertionError(f"{where}: axe-core failed: {result['error']}")
    problems = []
    for violation in result["violations"]:
        nodes = violation["nodes"]
        summary = " ".join(nodes[0]["summary"].split())
        more = f" (and {len(nodes) - 1} more nodes)" if len(nodes) > 1 else ""
        problems.append(f"{where}: axe-core {violation['id']} ({violation['impact']}): {nodes[0]['target']}{more}:"
                        f" {summary}")
    for rule in result["incomplete"]:
        incomplete[rule] = incomplete.get(rule, 0) + 1
    links, found = app_links(driver, where, extra_names)
    problems += found
    # WCAG 2.1 1.4.10 (reflow), which axe-core does not test: nothing scrolls sideways, down to a phone's width.
    overflow = driver.execute_script("const e = document.documentElement; return [e.scrollWidth, e.clientWidth];")
    if overflow[0] > overflow[1]:
        problems.append(f"{where}: the page is {overflow[0]} px wide in a {overflow[1]} px viewport: it scrolls"
                        " sideways (WCAG 1.4.10, reflow)")
    if own:
        hrefs = driver.execute_script(
            'return Array.from(document.querySelectorAll("a[href]")).map(a => a.getAttribute("href"))')
        wanted = {i: href for i, href in enumerate(hrefs)}
    else:
        wanted = {link["index"]: link["href"] for link in links if link["visible"]}
    screenshot(driver, shot)
    if own:
        # A page of our own shows every image it names on its own origin (icons mirrored into the tree): none may be
        # broken. Other hosts are unreachable here by design (--host-resolver-rules); an image the browser has not
        # fetched yet (loading="lazy", off screen) is not complete and is not judged.
        broken = driver.execute_script(
            "return Array.from(document.images).filter(i => i.complete && i.naturalWidth === 0"
            " && i.currentSrc.startsWith(location.origin + '/')).map(i => i.getAttribute('src'))")
        problems += [f"{where}: the image {src} does not load" for src in broken]
    problems += focus(driver, where, wanted)
    print(f"  {where}: {len(result['violations'])} axe violations, {len(links)} app links, {len(wanted)} links focused",
          flush=True)
    return problems


def check(urls, axe_path, shots, extra_names, own):
    axe_source = open(axe_path, encoding="utf-8").read()
    os.makedirs(shots, exist_ok=True)
    for stale in os.listdir(shots):
        if stale.endswith(".png"):
            os.remove(os.path.join(shots, stale))
    profile = tempfile.mkdtemp(prefix="check-access-")
    driver = browser(profile)
    problems, runs, incomplete = [], 0, {}
    try:
        # A page is loaded once per device (the widget picks apps by user agent) and checked in both schemes
        # without a reload: media queries follow the emulated prefers-color-scheme at once.
        for device, (width, height, mobile, agent) in DEVICES.items():
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
            driver.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": agent})
            for url in urls:
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                       {"features": [{"name": "prefers-color-scheme", "value": SCHEMES[0]}]})
                driver.get(url)
                settle(driver, url)
                driver.execute_script(axe_source)
                for scheme in SCHEMES:
                    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                    problems += check_rendering(driver, f"{url} ({device}, {scheme})", extra_names, own, incomplete,
                                                os.path.join(shots, shot_name(url, device, scheme)))
                    runs += 1
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    if incomplete:
        print("  axe-core left for review (not failures): " +
              ", ".join(f"{rule} ×{count}" for rule, count in sorted(incomplete.items())))
    return runs, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--axe", required=True, help="axe-core's axe.min.js")
    parser.add_argument("--shots", required=True, help="where the screenshots go")
    parser.add_argument("--names", help='JSON {"<trackId>": [names]} for app links with no name on their page')
    parser.add_argument("--own", action="store_true", help="every link on these pages is ours: tab to each")
    parser.add_argument("urls", nargs="+")
    args = parser.parse_args()
    if not os.path.isfile(args.axe):
        sys.exit(f"check-access: no axe-core script at {args.axe}")
    extra = json.load(open(args.names, encoding="utf-8")) if args.names else {}
    try:
        runs, problems = check(args.urls, args.axe, args.shots, extra, args.own)
    except AssertionError as error:
        print(f"  {error}", file=sys.stderr)
        sys.exit(1)
    shown = {}
    for problem in problems:  # three of a kind per page and mode, then a count
        kind = re.sub(r"(: axe-core \S+|: link).*", r"\1", problem)
        shown[kind] = shown.get(kind, 0) + 1
        if shown[kind] <= 3:
            print(f"  {problem}", file=sys.stderr)
        elif shown[kind] == 4:
            print(f"  {kind}: … (more of these)", file=sys.stderr)
    if problems:
        print(f"  {len(problems)} findings in {runs} page renderings", file=sys.stderr)
        sys.exit(1)
    print(f"  {len(args.urls)} pages × phone, desktop × light, dark: {runs} renderings, no axe-core violation"
          f" (WCAG 2.0/2.1 A, AA), app links named after their app, focus visible; screenshots in {args.shots}")


if __name__ == "__main__":
    main()
