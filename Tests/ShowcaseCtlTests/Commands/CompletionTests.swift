import Foundation
import ShowcaseCore
import Testing

/// The bash, zsh and fish completion scripts load cleanly and offer the command line of showcasectl(1) (what the CLI
/// accepts, plus the commands and flags ``Ctl/upcomingFlags`` lists).
@Suite("shell completions")
struct CompletionTests {
    static let bashScript = Ctl.packageRoot.appendingPathComponent("completions/showcasectl.bash").path
    static let zshScript = Ctl.packageRoot.appendingPathComponent("completions/_showcasectl").path
    static let fishScript = Ctl.packageRoot.appendingPathComponent("completions/showcasectl.fish").path

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
        #expect(Set(offered) == Set(Ctl.completionCommands + ["help"]))
        #expect(try Self.bashCompletions(["--json", "re"]).sorted() == ["refresh", "reload"])
    }

    @Test("bash completes each command's flags and the global ones", arguments: Ctl.completionCommands)
    func bashFlags(command: String) throws {
        let offered = Set(try Self.bashCompletions([command, "--"]))
        let expected = Set((Ctl.completionFlags[command] ?? []) + Ctl.globalFlags)
        #expect(offered == expected)
    }

    @Test("bash completes every App Store storefront code after --storefront, in both flag forms")
    func bashStorefronts() throws {
        let offered = try Self.bashCompletions(["roster", "--storefront", ""])
        #expect(offered.sorted() == Storefront.all.map(\.code).sorted())
        #expect(try Self.bashCompletions(["roster", "--storefront", "=", ""]).sorted() == offered.sorted())
        #expect(try Self.bashCompletions(["roster", "--platform", ""]) == ["ios", "macos"])
        #expect(try Self.bashCompletions(["roster", "--device", ""]) == ["iphone", "ipad", "watch", "tv", "vision"])
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
        for command in Ctl.completionCommands {
            #expect(text.contains("'\(command):"), "zsh script lacks \(command)")
        }
        for flag in Set(Ctl.completionFlags.values.flatMap { $0 }) {
            #expect(text.contains("'\(flag)="), "zsh script lacks \(flag)")
        }
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("_showcasectl_storefronts=(") })
        let codes = line.dropFirst("_showcasectl_storefronts=(".count).dropLast().split(separator: " ").map(String.init)
        #expect(codes.sorted() == Storefront.all.map(\.code).sorted())
    }

    /// Asks a real fish what it completes for `commandLine` (`complete -C`), with only our script loaded;
    /// returns the candidates (descriptions cut off). fish must load the script without a word on stderr.
    static func fishCompletions(_ commandLine: String) throws -> [String] {
        let fish = try #require(Tool.find("fish"), "fish is not installed: run scripts/deps.sh (Debian package fish)")
        let result = try Tool.run(
            fish, ["--no-config", "-c", "source $argv[1]; and complete -C $argv[2]", Self.fishScript, commandLine])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "fish printed: \(result.stderr)")
        return result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }

    @Test("the fish script parses, and fish loads it from a vendor_completions.d without errors")
    func fishLoads() throws {
        let fish = try #require(Tool.find("fish"), "fish is not installed: run scripts/deps.sh (Debian package fish)")
        let syntax = try Tool.run(fish, ["--no-execute", Self.fishScript])
        #expect(syntax.status == 0)
        #expect(syntax.stderr.isEmpty, "fish -n printed: \(syntax.stderr)")
        // Where make install puts it: fish autoloads <command>.fish from each data dir's fish/vendor_completions.d,
        // for a command it finds on PATH (here the built showcasectl), with its own share/config.fish loaded.
        let data = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let vendor = data.appendingPathComponent("fish/vendor_completions.d")
        try FileManager.default.createDirectory(at: vendor, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Self.fishScript, toPath: vendor.appendingPathComponent("showcasectl.fish").path)
        let loaded = try Tool.run(
            fish, ["-c", "complete -C 'showcasectl st'"],
            environment: [
                "XDG_DATA_DIRS": data.path, "XDG_CONFIG_HOME": data.appendingPathComponent("config").path,
                "XDG_DATA_HOME": data.appendingPathComponent("data").path,
                "PATH": (Ctl.binary as NSString).deletingLastPathComponent + ":/usr/bin:/bin",
            ])
        #expect(loaded.status == 0)
        #expect(loaded.stderr.isEmpty, "fish printed: \(loaded.stderr)")
        #expect(
            loaded.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
                == ["status", "storefronts"])
    }

    @Test("fish completes every command of the contract, with a description, and then no more commands")
    func fishCommands() throws {
        #expect(Set(try Self.fishCompletions("showcasectl ")) == Set(Ctl.completionCommands + ["help"]))
        let fish = try #require(Tool.find("fish"))
        let described = try Tool.run(
            fish, ["--no-config", "-c", "source $argv[1]; and complete -C 'showcasectl '", Self.fishScript])
        #expect(described.stdout.split(separator: "\n").allSatisfy { $0.contains("\t") && !$0.hasSuffix("\t") })
        #expect(try Self.fishCompletions("showcasectl --json re").sorted() == ["refresh", "reload"])
        #expect(try Self.fishCompletions("showcasectl status ").isEmpty)
        #expect(Set(try Self.fishCompletions("showcasectl help ")) == Set(Ctl.completionCommands + ["help"]))
    }

    @Test("fish completes each command's flags and the global ones", arguments: Ctl.completionCommands)
    func fishFlags(command: String) throws {
        let offered = Set(try Self.fishCompletions("showcasectl \(command) --"))
        #expect(offered == Set((Ctl.completionFlags[command] ?? []) + Ctl.globalFlags))
    }

    @Test(
        "fish completes every App Store storefront code after --storefront, and the values of --platform and --device")
    func fishStorefronts() throws {
        let offered = try Self.fishCompletions("showcasectl roster --storefront ")
        #expect(offered.sorted() == Storefront.all.map(\.code).sorted())
        #expect(
            try Self.fishCompletions("showcasectl --socket /tmp/s refresh --storefront j").sorted() == [
                "jm", "jo", "jp",
            ])
        #expect(try Self.fishCompletions("showcasectl roster --platform ") == ["ios", "macos"])
        #expect(
            Set(try Self.fishCompletions("showcasectl roster --device ")) == [
                "iphone", "ipad", "watch", "tv", "vision",
            ])
    }

    /// The first word of each line of a `--help` section (`commands:`, `options:`), up to the next blank line.
    static func section(_ title: String, of help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: Substring(title)) else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test("every command and flag the built showcasectl lists in --help is offered by the completions")
    func completionsFollowTheParser() throws {
        let help = try Ctl.run(["--help"])
        #expect(help.status == 0)
        let commands = Self.section("commands:", of: help.stdout)
        #expect(Set(Ctl.specCommands).isSubset(of: commands), "--help lists \(commands)")
        for command in commands where command != "help" {
            #expect(Ctl.completionCommands.contains(command), "showcasectl accepts \(command); completions lack it")
            let commandHelp = try Ctl.run([command, "--help"])
            #expect(commandHelp.status == 0)
            for flag in Self.section("options:", of: commandHelp.stdout) {
                #expect(
                    Ctl.completionFlags[command, default: []].contains(flag),
                    "showcasectl \(command) accepts \(flag); completions lack it")
            }
        }
        #expect(
            Self.section("global options:", of: help.stdout).filter { $0.hasPrefix("--") } == [
                "--socket", "--config", "--json",
            ])
    }
}
