import Foundation
import Testing

/// showcased's own bash, zsh and fish completions (completions/showcased*) offer every flag its --help names, and
/// bash offers `--max-wait` and `--json` only after `--once`, and `--socket` never with it.
@Suite("showcased completions")
struct DaemonCompletionTests {
    static let root = Ctl.packageRoot.appendingPathComponent("completions")

    /// Every `--flag` in `showcased --help`, without the punctuation around it.
    static func helpFlags() throws -> Set<String> {
        try RealDaemon.requireBuilt()
        let help = try Tool.run(RealDaemon.binary, ["--help"]).stdout
        let words = help.split(whereSeparator: { " \n|[](),:;.".contains($0) }).map(String.init)
        return Set(words.filter { $0.hasPrefix("--") && $0.count > 2 })
    }

    /// What the bash completion offers after `words` (the last one being typed).
    static func bash(_ words: [String]) throws -> [String] {
        let script = root.appendingPathComponent("showcased.bash").path
        let quoted = (["showcased"] + words).map { "'\($0)'" }.joined(separator: " ")
        let result = try Tool.run(
            "/bin/bash",
            [
                "--norc", "--noprofile", "-c",
                "set -u; source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count); _showcased; "
                    + "printf '%s\\n' \"${COMPREPLY[@]}\"",
            ])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "bash printed: \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test("each of the three scripts offers every flag showcased --help names")
    func everyFlag() throws {
        let flags = try Self.helpFlags()
        #expect(flags.isSuperset(of: ["--once", "--max-wait", "--json", "--cache-dir"]), "\(flags)")
        let bash = try String(contentsOf: Self.root.appendingPathComponent("showcased.bash"), encoding: .utf8)
        let zsh = try String(contentsOf: Self.root.appendingPathComponent("_showcased"), encoding: .utf8)
        let fish = try String(contentsOf: Self.root.appendingPathComponent("showcased.fish"), encoding: .utf8)
        for flag in flags {
            #expect(bash.contains(flag), "showcased.bash lacks \(flag)")
            #expect(zsh.contains(flag), "_showcased lacks \(flag)")
            #expect(fish.contains("-l \(flag.dropFirst(2))"), "showcased.fish lacks \(flag)")
        }
    }

    @Test("bash offers --max-wait and --json after --once, and --socket only without it")
    func bashFollowsOnce() throws {
        let plain = try Self.bash(["--"])
        #expect(plain.contains("--once") && plain.contains("--socket"), "\(plain)")
        #expect(!plain.contains("--max-wait"), "\(plain)")
        let once = try Self.bash(["--once", "--"])
        #expect(once.contains("--max-wait") && once.contains("--json"), "\(once)")
        #expect(!once.contains("--socket"), "\(once)")
        #expect(try Self.bash(["--once", "--max-wait", "1"]) == ["1m", "10m"])
    }
}
