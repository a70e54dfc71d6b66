#!/usr/bin/env python3
"""Keeps every function of the export short enough to read at once (run by `make lint`).

    scripts/check-function-length.py [--max N] [DIR ...]

reads every .swift file below each DIR (default: Sources/ShowcaseExport of the checkout this script is in) and fails,
naming the file, line and length, for each `func`, `init` or `deinit` longer than N lines (default 80), counted from
the line of its keyword to the line of its closing brace. Braces inside string literals (single-line and `\"\"\"`
multi-line) and comments are not counted. A protocol requirement (no body) is not a function here.

Exits 0 when every function fits, 1 with one line per long function on stderr otherwise.
"""

import pathlib
import re
import sys

DECLARATION = re.compile(r"(?<![\w.])(func\s+[^\s(<]+|init[?!]?\s*[(<]|deinit\s*\{)")


def code_only(text):
    """`text` with the contents of comments and string literals blanked out (newlines kept), so braces are code."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif text.startswith('"""', i):
            end = text.find('"""', i + 3)
            end = n if end < 0 else end + 3
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif text[i] == '"':
            j = i + 1
            depth = 0
            while j < n and text[j] != "\n":
                if text.startswith("\\(", j):
                    depth += 1
                    j += 2
                    continue
                if depth and text[j] == ")":
                    depth -= 1
                elif text[j] == "\\":
                    j += 1
                elif text[j] == '"' and not depth:
                    break
                j += 1
            out.append(" " * (j + 1 - i))
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def long_functions(path, limit):
    """(line, length, name) of each function in `path` longer than `limit` lines."""
    code = code_only(path.read_text(encoding="utf-8"))
    found = []
    for match in DECLARATION.finditer(code):
        start = match.start()
        # The body opens at the first `{` after the signature; a `;`-free signature ends at a newline followed by a
        # declaration, so a requirement without a body is skipped when a `}` or another declaration comes first.
        opening = code.find("{", start)
        if opening < 0:
            continue
        between = code[match.end():opening]
        if "}" in between or DECLARATION.search(between):
            continue
        depth, i = 0, opening
        while i < len(code):
            if code[i] == "{":
                depth += 1
            elif code[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        first = code.count("\n", 0, start) + 1
        last = code.count("\n", 0, i) + 1
        if last - first + 1 > limit:
            found.append((first, last - first + 1, match.group(1).rstrip("({< ")))
    return found


def main():
    args = sys.argv[1:]
    limit = 80
    if args[:1] == ["--max"]:
        limit, args = int(args[1]), args[2:]
    root = pathlib.Path(__file__).resolve().parent.parent
    directories = [pathlib.Path(a) for a in args] or [root / "Sources" / "ShowcaseExport"]
    problems = []
    for directory in directories:
        for path in sorted(directory.rglob("*.swift")):
            for line, length, name in long_functions(path, limit):
                problems.append(
                    f"{path}:{line}: {name} is {length} lines, over {limit}: split it into steps that each fit "
                    "(the export pass is plan, reconcile, apply; docs/data-flow.md)")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
