"""The apps the widget must show a visitor, computed from a document the way showcase-widget.js filters
(platform by document, devices missing = iphone + ipad, the OS floor compared numerically): shared by
check-export-web.sh and check-export-html.py."""
import json


def version(text):
    return [int(part) for part in text.split(".")]


def runs_on(app, device, os_version):
    if device and device not in app.get("devices", ["iphone", "ipad"]):
        return False
    if not os_version:
        return True
    a, b = version(app["minimumOsVersion"]), version(os_version)
    width = max(len(a), len(b))
    return a + [0] * (width - len(a)) <= b + [0] * (width - len(b))


def expected_ids(document_path, device="", os_version=""):
    apps = json.load(open(document_path, encoding="utf-8"))["apps"]
    return [str(app["id"]) for app in apps if runs_on(app, device, os_version)]
