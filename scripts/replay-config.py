#!/usr/bin/env python3
"""A configuration pointed at the offline replay, for `make demo`, `make try` and the checks (scripts/lib.sh).

    scripts/replay-config.py CONFIG --endpoint URL [--artwork-host URL] --scratch DIR
                             [--export DIR] [--socket PATH] [--no-export] [--keep-relative] [--fixtures DIR]

prints CONFIG (never modified) with what would reach the internet or the machine's own directories pointed
elsewhere: lookup.endpoint at URL, lookup.rate_limit at 600/min (the replay is local), lookup.artwork_hosts at
[--artwork-host's URL] only (for a replay that serves icons: no icon is ever fetched from Apple; without it,
export.icons is removed, so nothing may fetch one); cache.directory, state.directory and metrics.textfile inside
DIR; export.directory at DIR/site/showcase, or at --export's DIR (export added when absent, removed with
--no-export); socket.path at PATH when given; relative paths (overlays, site pages) made absolute from CONFIG's
folder, unless --keep-relative (the copy then goes beside copies of those files). Everything else, values and their YAML types, is kept (comments are not: the copy is a scratch file).

With --fixtures, every host's bundle_id must have an identity file there (identity-<bundle id>-<cc>.json) and
every two-letter storefront a roster of that developer (roster-<artistId>-<cc>.json); otherwise the hosts or
storefronts the fixtures do not know are named, with the ones they know, and the exit status is 65.
Errors in CONFIG itself are showcasectl check-config's to report (run it first); here they exit 65 too.
"""

import argparse
import json
import os
import pathlib
import re
import sys

try:
    import yaml
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode
except ImportError:
    sys.exit("replay-config: needs Python's yaml module (Debian: apt-get install python3-yaml; make deps installs it)")

STR = "tag:yaml.org,2002:str"


def scalar(text):
    return ScalarNode(STR, text)


def mapping():
    return MappingNode("tag:yaml.org,2002:map", [])


def lookup(node, key):
    """The value node of `key` in the mapping `node`, or None."""
    if not isinstance(node, MappingNode):
        return None
    for key_node, value in node.value:
        if isinstance(key_node, ScalarNode) and key_node.value == key:
            return value
    return None


def assign(node, key, value):
    """Sets `key` of the mapping `node` to the node `value` (added last when absent)."""
    for index, (key_node, _) in enumerate(node.value):
        if isinstance(key_node, ScalarNode) and key_node.value == key:
            node.value[index] = (key_node, value)
            return
    node.value.append((scalar(key), value))


def remove(node, key):
    node.value = [(k, v) for k, v in node.value if not (isinstance(k, ScalarNode) and k.value == key)]


def section(root, key):
    """The mapping under `key`, created when absent or null."""
    value = lookup(root, key)
    if not isinstance(value, MappingNode):
        value = mapping()
        assign(root, key, value)
    return value


def absolute(node, base):
    """A relative path scalar made absolute from `base` (the configuration's folder)."""
    if base and isinstance(node, ScalarNode) and node.tag == STR and node.value and not node.value.startswith("/"):
        node.value = str(base / node.value)
        node.style = None


def known_fixtures(directory):
    """{bundle id: {"storefronts": set, "artist": id}} from the identity and roster files in `directory`."""
    known = {}
    for path in sorted(directory.glob("identity-*.json")):
        match = re.fullmatch(r"identity-(.+)-([a-z]{2})\.json", path.name)
        if not match:
            continue
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))["results"]
            artist = rows[0]["artistId"]
        except (ValueError, KeyError, IndexError, TypeError):
            continue
        known.setdefault(match.group(1), {"artist": artist})
    for entry in known.values():
        entry["storefronts"] = {
            re.fullmatch(rf"roster-{entry['artist']}-([a-z]{{2}})\.json", path.name).group(1)
            for path in directory.glob(f"roster-{entry['artist']}-??.json")
        }
    return known


def check_fixtures(root, fixtures, config_name):
    """Exits 65 naming every host or storefront `fixtures` cannot answer for."""
    known = known_fixtures(fixtures)
    hosts = lookup(root, "hosts")
    bundle_ids = []
    if isinstance(hosts, SequenceNode):
        bundle_ids = [node.value for host in hosts.value if isinstance(node := lookup(host, "bundle_id"), ScalarNode)]
    storefronts = lookup(root, "storefronts")
    codes = ["us"] if storefronts is None else []
    if isinstance(storefronts, ScalarNode):
        codes = [storefronts.value]
    elif isinstance(storefronts, SequenceNode):
        for entry in storefronts.value:
            code = lookup(entry, "code") if isinstance(entry, MappingNode) else entry
            if isinstance(code, ScalarNode):
                codes.append(code.value)
    problems = []
    unknown = [bundle_id for bundle_id in bundle_ids if bundle_id not in known]
    for bundle_id in unknown:
        problems.append(f"host {bundle_id}: the fixtures know no app with this bundle_id")
    if unknown:
        problems.append("the bundle ids they know: " + ", ".join(sorted(known)))
    for bundle_id in bundle_ids:
        if bundle_id not in known:
            continue
        have = known[bundle_id]["storefronts"]
        missing = [code for code in codes if code.lower() not in have and (len(code) == 2 or code == "all")]
        if missing:
            problems.append(
                f"host {bundle_id}: the fixtures have no roster for storefronts {', '.join(missing)}"
                f" (they have {', '.join(sorted(have))})")
    if problems:
        print(f"try: {config_name} asks for what the offline replay ({fixtures}) cannot answer:", file=sys.stderr)
        for line in problems:
            print(f"  {line}", file=sys.stderr)
        print("  point the configuration at those, or add fixtures of your own app (Fixtures/README.md)",
              file=sys.stderr)
        sys.exit(65)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config")
    parser.add_argument("--endpoint", required=True)
    parser.add_argument("--artwork-host")
    parser.add_argument("--scratch", required=True)
    parser.add_argument("--export")
    parser.add_argument("--socket")
    parser.add_argument("--no-export", action="store_true")
    parser.add_argument("--keep-relative", action="store_true")
    parser.add_argument("--fixtures")
    options = parser.parse_args()

    config = pathlib.Path(options.config).resolve()
    try:
        root = yaml.compose(config.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        print(f"replay-config: cannot read {options.config}: {error}", file=sys.stderr)
        sys.exit(65)
    if not isinstance(root, MappingNode):
        print(f"replay-config: {options.config} is not a configuration (a YAML mapping)", file=sys.stderr)
        sys.exit(65)
    if options.fixtures:
        check_fixtures(root, pathlib.Path(options.fixtures), options.config)

    base = None if options.keep_relative else config.parent
    scratch = pathlib.Path(options.scratch)
    upstream = section(root, "lookup")
    assign(upstream, "endpoint", scalar(options.endpoint))
    if options.artwork_host:
        assign(upstream, "artwork_hosts", SequenceNode("tag:yaml.org,2002:seq", [scalar(options.artwork_host)],
                                                       flow_style=True))
    assign(upstream, "rate_limit", scalar("600/min"))
    assign(section(root, "cache"), "directory", scalar(str(scratch / "cache")))
    assign(section(root, "state"), "directory", scalar(str(scratch / "state")))
    if options.no_export:
        remove(root, "export")
    else:
        export = section(root, "export")
        assign(export, "directory", scalar(options.export or str(scratch / "site" / "showcase")))
        if not options.artwork_host:
            remove(export, "icons")
        pages = lookup(lookup(export, "site"), "pages")
        if isinstance(pages, MappingNode):
            for _, files in pages.value:
                for _, path in files.value if isinstance(files, MappingNode) else []:
                    absolute(path, base)
    metrics = lookup(root, "metrics")
    if isinstance(lookup(metrics, "textfile"), ScalarNode) and lookup(metrics, "textfile").tag == STR:
        assign(metrics, "textfile", scalar(str(scratch / "showcase.prom")))
    if options.socket:
        assign(section(root, "socket"), "path", scalar(options.socket))
    absolute(lookup(root, "overlay"), base)
    hosts = lookup(root, "hosts")
    for host in hosts.value if isinstance(hosts, SequenceNode) else []:
        absolute(lookup(host, "overlay"), base)

    sys.stdout.write(f"# {config} pointed at the offline replay (scripts/replay-config.py)\n")
    sys.stdout.write(yaml.serialize(root, allow_unicode=True, width=1 << 16))


if __name__ == "__main__":
    main()
