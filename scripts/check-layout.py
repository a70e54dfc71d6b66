#!/usr/bin/env python3
"""Keeps Package.swift's module charters true and Sources/ the product (run by `make lint`).

    scripts/check-layout.py [ROOT]

reads ROOT/Package.swift (default: the checkout this script is in) as text, every target declared there, the
SHOWCASE_FUZZ block's included, and fails, naming the target and what to change, when:

- a `.target` or `.executableTarget` has no charter: the `//` comment right above it must say "May use A, B and C."
  (or "May use nothing."), and that set must be its `dependencies` exactly. Toolchain modules (FoundationEssentials,
  Foundation, Dispatch, …) may be named there and are not compared; any other name must be a target;
- a `.systemLibrary`'s comment says "only A (and B) may use it" while another target depends on it;
- a target's Swift files import a module of this package that is not among its dependencies, or it depends on a
  module none of its files import;
- a target under Sources/ is a tool: no product (`showcased`, `showcasectl`, the `Varlink` library) is built from it.
  Tools live under Tools/, and a product is never built from there; every folder of Sources/ is a target's;
- a file under Sources/ names BENCHMARKS.md: the code states the rule (what must hold, and why), the figures behind
  it are in BENCHMARKS.md ("Why the hot paths look as they do", under the file and symbol they justify).

Exits 0 when everything holds, 1 with one line per problem on stderr otherwise.
"""

import pathlib
import re
import sys

# Modules of the toolchain a charter may name; they are not targets, so they are not compared.
TOOLCHAIN = {
    "Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Synchronization", "Glibc", "Testing",
    "XCTest",
}
DECLARATION = re.compile(r"\.(target|executableTarget|testTarget|systemLibrary)\(")
PRODUCT = re.compile(r"\.(executable|library)\(\s*name:\s*\"([^\"]+)\",\s*targets:\s*\[([^\]]*)\]")
IMPORT = re.compile(
    r"^[ \t]*(?:@[\w(). ]+[ \t]+)*(?:(?:public|internal|package|private|fileprivate)[ \t]+)?import[ \t]+"
    r"(?:(?:typealias|struct|class|enum|protocol|let|var|func)[ \t]+)?(\w+)",
    re.M)


def closing_paren(text, start):
    """The index of the `)` that closes the `(` at `start`, skipping string literals."""
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == '"':
            i = text.index('"', i + 1)
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError("unbalanced parentheses after offset %d" % start)


def comment_above(text, start):
    """The `//` lines right above the line `start` is on, joined into one text."""
    lines = text[: text.rfind("\n", 0, start) + 1].split("\n")[:-1]
    block = []
    for line in reversed(lines):
        stripped = line.strip()
        if not stripped.startswith("//"):
            break
        block.append(stripped[2:].strip())
    return " ".join(reversed(block))


def names_in(phrase):
    """The module names of a list such as "A (why), B and C only"; None when an item is not a name."""
    phrase = re.sub(r"\([^()]*\)", "", phrase).strip()
    phrase = re.sub(r"\s+only$", "", phrase)
    if phrase in ("nothing", "no other module"):
        return set()
    names = set()
    for item in re.split(r",\s*|\s+and\s+", phrase):
        match = re.fullmatch(r"([A-Za-z][\w-]*)(?:'s\b.*)?", item.strip())
        if not match:
            return None
        names.add(match.group(1))
    return names


def declarations(text):
    """Every target declared in Package.swift: kind, name, dependencies, path and the comment above it."""
    found = []
    for match in DECLARATION.finditer(text):
        body = text[match.end() : closing_paren(text, match.end() - 1)]
        name = re.search(r'name:\s*"([^"]+)"', body).group(1)
        deps = re.search(r"dependencies:\s*\[([^\]]*)\]", body)
        path = re.search(r'path:\s*"([^"]+)"', body)
        kind = match.group(1)
        found.append({
            "kind": kind,
            "name": name,
            "deps": set(re.findall(r'"([^"]+)"', deps.group(1))) if deps else set(),
            "path": path.group(1) if path else ("Tests/" if kind == "testTarget" else "Sources/") + name,
            "comment": comment_above(text, match.start()),
        })
    return found


def imports_of(root, path):
    """The modules the Swift files under `path` import."""
    modules = set()
    for file in (root / path).rglob("*.swift"):
        modules |= set(IMPORT.findall(file.read_text(encoding="utf-8")))
    return modules


def check(root):
    text = (root / "Package.swift").read_text(encoding="utf-8")
    targets = declarations(text)
    by_name = {t["name"]: t for t in targets}
    problems = []

    for t in targets:
        where = "Package.swift: %s %s" % (t["kind"], t["name"])
        if t["kind"] in ("target", "executableTarget"):
            charter = re.search(r"May use ([^.:;]*)", t["comment"])
            if not charter:
                problems.append('%s: its comment has no charter ("May use A, B and C." or "May use nothing.")' % where)
            else:
                named = names_in(charter.group(1))
                if named is None:
                    problems.append('%s: "May use %s" is not a list of modules' % (where, charter.group(1).strip()))
                else:
                    unknown = sorted(n for n in named - TOOLCHAIN if n not in by_name)
                    if unknown:
                        problems.append("%s: its charter names %s, not a target" % (where, ", ".join(unknown)))
                    said = named - TOOLCHAIN - set(unknown)
                    if said != t["deps"]:
                        problems.append(
                            "%s: its charter says it may use {%s} but its dependencies are {%s}"
                            % (where, ", ".join(sorted(said)), ", ".join(sorted(t["deps"]))))
        if t["kind"] == "systemLibrary":
            only = re.search(r"only (.+?) may use it", t["comment"])
            users = {u["name"] for u in targets if t["name"] in u["deps"]}
            allowed = names_in(only.group(1)) if only else None
            if only and (allowed is None or not users <= allowed):
                problems.append(
                    '%s: its comment says "only %s may use it" but {%s} depend on it'
                    % (where, only.group(1), ", ".join(sorted(users))))
        for dep in sorted(t["deps"] - set(by_name)):
            problems.append("%s: depends on %s, which is not a target" % (where, dep))
        if t["kind"] != "systemLibrary" and (root / t["path"]).is_dir():
            imported = imports_of(root, t["path"])
            for module in sorted((imported & set(by_name)) - t["deps"] - {t["name"]}):
                problems.append("%s: imports %s, which is not among its dependencies" % (where, module))
            if t["kind"] != "testTarget":
                for module in sorted(t["deps"] - imported):
                    problems.append("%s: depends on %s, which none of its files imports" % (where, module))

    # Sources/ is the product: what the products are built from, and nothing else.
    shipped, todo = set(), []
    for match in PRODUCT.finditer(text):
        todo += re.findall(r'"([^"]+)"', match.group(3))
    while todo:
        name = todo.pop()
        if name in by_name and name not in shipped:
            shipped.add(name)
            todo += by_name[name]["deps"]
    for t in targets:
        in_sources = t["path"] == "Sources" or t["path"].startswith("Sources/")
        if in_sources and t["name"] not in shipped:
            problems.append(
                "Package.swift: %s %s is under %s but no product is built from it: a tool's place is Tools/"
                % (t["kind"], t["name"], t["path"]))
        if t["name"] in shipped and not in_sources:
            problems.append(
                "Package.swift: %s %s is part of a product but lives in %s: the product's place is Sources/"
                % (t["kind"], t["name"], t["path"]))
    paths = {t["path"].rstrip("/") for t in targets}
    for folder in sorted(p for p in (root / "Sources").iterdir() if p.is_dir()):
        if "Sources/" + folder.name not in paths:
            problems.append("Sources/%s: no target is built from this folder (a tool's place is Tools/)" % folder.name)

    # Invariants in the code, measurements in BENCHMARKS.md.
    for file in sorted(p for p in (root / "Sources").rglob("*") if p.is_file()):
        for number, line in enumerate(file.read_text(encoding="utf-8", errors="replace").split("\n"), 1):
            if "BENCHMARKS" in line:
                problems.append(
                    "%s:%d: names BENCHMARKS.md; state the rule here (what must hold, and why) and keep the figure "
                    "in BENCHMARKS.md under this file and symbol" % (file.relative_to(root), number))
    return problems


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    problems = check(root)
    for problem in problems:
        print("check-layout: " + problem, file=sys.stderr)
    if problems:
        return 1
    print("check-layout: ok: every charter equals its target's dependencies and imports; Sources/ holds the products"
          " only, and cites no BENCHMARKS.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
