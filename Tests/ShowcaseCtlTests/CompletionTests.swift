import Foundation
import ShowcaseCore
import Testing

/// The bash and zsh completion scripts load cleanly and offer what the CLI accepts.
@Suite("shell completions")
struct CompletionTests {
    static let bashScript = Ctl.packageRoot.appendingPathComponent("completions/showcasectl.bash").path
    static let zshScript = Ctl.packageRoot.appendingPathComponent("completions/_showcasectl").path

    /// Asks the bash completion function what it offers after `words` (the last one being typed).
    static func bashCompletions(_ words: [String]) throws -> [String] {
        let quoted = (["showcasectl"] + words).map { "'\($0)'" }.joined(separator: " ")
        let script = """
            set -u
            source '\(bashScript)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count)
            _showcasectl
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try Tool.run("/bin/bash", ["--norc", "--noprofile", "-c", script])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "bash printed: \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test("the bash script parses and sourcing it registers the completion without errors")
    func bashLoads() throws {
        let syntax = try Tool.run("/bin/bash", ["-n", Self.bashScript])
        #expect(syntax.status == 0)
        #expect(syntax.stderr.isEmpty)
        let loaded = try Tool.run(
            "/bin/bash",
            ["--norc", "--noprofile", "-c", "set -eu; source '\(Self.bashScript)'; complete -p showcasectl"])
        #expect(loaded.status == 0)
        #expect(loaded.stderr.isEmpty, "sourcing printed: \(loaded.stderr)")
        #expect(loaded.stdout.contains("complete -F _showcasectl showcasectl"))
    }

    @Test("bash completes every command of the contract")
    func bashCommands() throws {
        let offered = try Self.bashCompletions([""])
        #expect(Set(offered) == Set(Ctl.specCommands + ["help"]))
        #expect(try Self.bashCompletions(["--json", "re"]).sorted() == ["refresh", "reload"])
    }

    @Test("bash completes each command's flags and the global ones", arguments: Ctl.specCommands)
    func bashFlags(command: String) throws {
        let offered = Set(try Self.bashCompletions([command, "--"]))
        let expected = Set((Ctl.specFlags[command] ?? []) + ["--socket", "--config", "--json", "--help"])
        #expect(offered == expected)
    }

    @Test("bash completes every App Store storefront code after --storefront, in both flag forms")
    func bashStorefronts() throws {
        let offered = try Self.bashCompletions(["roster", "--storefront", ""])
        #expect(offered.sorted() == Storefront.all.map(\.code).sorted())
        #expect(try Self.bashCompletions(["roster", "--storefront", "=", ""]).sorted() == offered.sorted())
        #expect(try Self.bashCompletions(["roster", "--platform", ""]) == ["ios", "macos"])
    }

    @Test(
        "the zsh script parses and compinit registers it",
        .enabled(if: Tool.find("zsh") != nil, "zsh is not installed (apt-get install zsh)"))
    func zshLoads() throws {
        let zsh = try #require(Tool.find("zsh"))
        let syntax = try Tool.run(zsh, ["-n", Self.zshScript])
        #expect(syntax.status == 0)
        #expect(syntax.stderr.isEmpty)
        let directory = (Self.zshScript as NSString).deletingLastPathComponent
        let loaded = try Tool.run(
            zsh,
            [
                "-fc",
                "fpath=('\(directory)' $fpath); autoload -Uz compinit; compinit -u -D; print -r -- ${_comps[showcasectl]}",
            ])
        #expect(loaded.status == 0)
        #expect(loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "_showcasectl")
    }

    @Test("the zsh script offers every command, flag and storefront code")
    func zshContents() throws {
        let text = try String(contentsOfFile: Self.zshScript, encoding: .utf8)
        for command in Ctl.specCommands {
            #expect(text.contains("'\(command):"), "zsh script lacks \(command)")
        }
        for flag in Set(Ctl.specFlags.values.flatMap { $0 }) {
            #expect(text.contains("'\(flag)="), "zsh script lacks \(flag)")
        }
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("_showcasectl_storefronts=(") })
        let codes = line.dropFirst("_showcasectl_storefronts=(".count).dropLast().split(separator: " ").map(String.init)
        #expect(codes.sorted() == Storefront.all.map(\.code).sorted())
    }
}
