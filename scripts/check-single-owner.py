#!/usr/bin/env python3
"""Keeps the daemon's one owner of state true (run by `make lint`; issue #38's counts).

    scripts/check-single-owner.py [ROOT]
    scripts/check-single-owner.py --self-test

reads ROOT/Sources/ShowcaseDaemon (default: the checkout this script is in) and fails, naming the file, line and
what to do, when:

- a lock (`Lock`, `LockedBox`, `Atomic`, `Mutex`) is stored or made anywhere but in the five holders the design
  allows: ``StateOwner`` (the one lock over ``DaemonState``, and the versions it publishes: its counter and each
  storefront's ``StorefrontStamp``), ``RateLimiter``, ``Upstream`` (its counters), ``DaemonLog`` and ``WatchHub``
  (its inbox). Anything else that changes belongs in ``DaemonState``, behind the owner's lock, with a transition;
  a type that only performs (an effect executor) holds no lock. A lock made inside a function (a late-binding
  box, a collector) counts like a stored one;
- a `mutating func` of ``DaemonState`` (in its declaration or an `extension DaemonState`) returns no
  ``StateChange``: every transition says what it asks of the owner, even when that is ``StateChange/none``.

Exits 0 when everything holds, 1 with one line per problem on stderr otherwise.
"""

import pathlib
import re
import sys

# The types that may hold a lock, and why (the owner's published versions are part of the owner).
HOLDERS = {
    "StateOwner": "the owner",
    "StorefrontStamp": "the owner (a storefront's published version)",
    "RateLimiter": "the rate limiter",
    "Upstream": "the upstream counters",
    "DaemonLog": "the log",
    "WatchHub": "the watch inbox",
}
STORED = re.compile(r"^\s*(?:[\w@()]+\s+)*(?:let|var)\s+\w+\s*(?::\s*(?:Lock|LockedBox|Atomic|Mutex)\s*<|=\s*(?:Lock|LockedBox|Atomic|Mutex)\b)")
DECLARATION = re.compile(r"\b(class|struct|enum|actor|extension|protocol)\s+(\w+)|\b(func|init|deinit|get|set)\b")
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
MUTATING = re.compile(r"\bmutating\s+func\s+(\w+)")


def scopes(lines):
    """For each line, the scopes open at its start: (kind, name) from outermost in, by braces outside strings and
    comments. A type's kind is its keyword; a function's (or init's, or accessor's) is "func"."""
    stack, pending, result = [], None, []
    for line in lines:
        result.append(list(stack))
        code = STRING.sub('""', line).split("//", 1)[0]
        for match in DECLARATION.finditer(code):
            pending = (match.group(1), match.group(2)) if match.group(1) else ("func", match.group(3))
        for character in code:
            if character == "{":
                stack.append(pending or ("block", None))
                pending = None
            elif character == "}" and stack:
                stack.pop()
    return result


def signature(lines, index):
    """The text of a declaration from line `index` up to its body's `{`."""
    text = ""
    for line in lines[index:index + 12]:
        text += " " + line.strip()
        if "{" in line:
            break
    return text.split("{", 1)[0]


def self_test():
    """Plants each kind of problem (and what is allowed) in a temporary tree and checks that exactly the planted
    ones are found: `make lint` runs this first, so a checker that stopped finding anything fails there."""
    import tempfile

    planted = {
        "State/DaemonState+Planted.swift": (
            "extension DaemonState {\n"
            "    mutating func quiet(_ value: Int) {\n"
            "        let local = 1\n"
            "    }\n"
            "    mutating func told() -> (Int, StateChange) { (1, .none) }\n"
            "    mutating func wrapped(\n        _ value: Int\n    ) -> StateChange {\n        .none\n    }\n"
            "}\n"),
        "Export/Planted.swift": (
            "final class Planted: Sendable {\n"
            "    private let state = Lock(State())\n"
            "    let text = \"Lock(\"  // a string is not a lock\n"
            "    func late() {\n"
            "        let box = LockedBox<Int?>(nil)\n"
            "    }\n"
            "}\n"),
        "State/StateOwner.swift": "final class StateOwner: Sendable {\n    private let guarded: Lock<Guarded>\n}\n",
    }
    with tempfile.TemporaryDirectory() as root:
        for name, text in planted.items():
            path = pathlib.Path(root, "Sources", "ShowcaseDaemon", name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        found = sorted(problem.split(": ", 1)[0] for problem in problems_in(pathlib.Path(root)))
    expected = [
        "Sources/ShowcaseDaemon/Export/Planted.swift:2", "Sources/ShowcaseDaemon/Export/Planted.swift:5",
        "Sources/ShowcaseDaemon/State/DaemonState+Planted.swift:2",
    ]
    if found != expected:
        print(f"check-single-owner.py --self-test: found {found}, expected {expected}", file=sys.stderr)
        return 1
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    problems = problems_in(root)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


def problems_in(root):
    """Every problem in `root`'s Sources/ShowcaseDaemon, one line each."""
    problems = []
    for path in sorted((root / "Sources" / "ShowcaseDaemon").rglob("*.swift")):
        lines = path.read_text().split("\n")
        name = path.relative_to(root)
        for index, open_scopes in enumerate(scopes(lines)):
            code = STRING.sub('""', lines[index]).split("//", 1)[0]
            types = [scope for scope in open_scopes if scope[0] not in ("func", "block")]
            owner = types[-1][1] if types else None
            in_function = bool(open_scopes) and open_scopes[-1][0] in ("func", "block")
            if STORED.match(code) and owner not in HOLDERS:
                where = f"a function of {owner}" if in_function else owner
                problems.append(
                    f"{name}:{index + 1}: a lock in {where or 'a free function'}: only "
                    + ", ".join(sorted(HOLDERS)) + " hold locks; move this state into DaemonState, make "
                    "the type an effect executor")
            match = MUTATING.search(code)
            if match and owner == "DaemonState" and not in_function:
                returned = signature(lines, index).split(")", 1)[-1]
                if "StateChange" not in returned.split("->", 1)[-1] or "->" not in returned:
                    problems.append(
                        f"{name}:{index + 1}: DaemonState.{match.group(1)} returns no StateChange: every transition "
                        "says what it asks of the owner (StateChange.none when nothing)")
    return problems


if __name__ == "__main__":
    sys.exit(main())
