import Testing

/// `--help` documents what the parser accepts: every command, every flag, an example.
@Suite("showcasectl help")
struct HelpTests {
    @Test("the tool's help lists every command of the contract and exits 0", arguments: [["--help"], ["-h"], ["help"]])
    func overview(arguments: [String]) throws {
        let result = try Ctl.run(arguments)
        #expect(result.status == 0)
        for command in Ctl.specCommands {
            #expect(result.stdout.contains("  \(command) "), "help does not list \(command)")
        }
        for flag in ["--socket PATH", "--json", "--config PATH"] {
            #expect(result.stdout.contains(flag))
        }
        #expect(result.stderr.isEmpty)
    }

    @Test("each command's help shows its usage, each of its flags and an example", arguments: Ctl.specCommands)
    func commandHelp(command: String) throws {
        for form in [[command, "--help"], [command, "-h"], ["help", command]] {
            let result = try Ctl.run(form)
            #expect(result.status == 0)
            #expect(result.stdout.hasPrefix("usage: showcasectl [--socket PATH] [--json] \(command)"))
            for flag in Ctl.specFlags[command] ?? [] {
                #expect(result.stdout.contains("  \(flag)"), "\(command) --help does not document \(flag)")
            }
            #expect(result.stdout.contains("example:\n  showcasectl "))
        }
    }

    @Test("--help wins over mistakes elsewhere on the line")
    func helpWins() throws {
        let result = try Ctl.run(["roster", "--bogus", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("--storefront CC"))
    }
}
