import Foundation
import ShowcaseCore
import Testing

/// Argument errors are caught before any connection, exit 64 (65 for an unknown storefront), and
/// show the usage line so the user sees what the command accepts.
@Suite("showcasectl command line")
struct CommandLineTests {
    @Test(
        "an unknown flag exits 64 with the command's usage line",
        arguments: [
            ["roster", "--storefront", "de", "--colour"],
            ["status", "--verbose"],
            ["roster", "-x", "--storefront", "de"],
            ["watch", "--platform", "ios"],
        ])
    func unknownFlag(arguments: [String]) throws {
        let result = try Ctl.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown option"))
        #expect(result.stderr.contains("usage: showcasectl"))
        #expect(result.stderr.contains(arguments[0]))
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "--version and -V print this client's version and exit 0 without looking for a daemon",
        arguments: [["--version"], ["-V"], ["roster", "--storefront", "de", "--version"], ["--json", "-V"]])
    func clientVersion(arguments: [String]) throws {
        let result = try Ctl.run(["--socket", "/nonexistent/showcased.sock"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "showcasectl \(ShowcaseVersion.string)\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("-v is answered with -V, the flag that was probably meant")
    func lowercaseV() throws {
        let result = try Ctl.run(["-v"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown option '-v' (did you mean -V?)"), "\(result.stderr)")
    }

    @Test("a misspelt flag is answered with the flag that was probably meant")
    func misspeltFlag() throws {
        let result = try Ctl.run(["roster", "--storefrnt", "de"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("did you mean --storefront?"))
    }

    @Test("a storefront given by its name exits 65 suggesting its code")
    func storefrontByName() throws {
        let result = try Ctl.run(["roster", "--storefront", "germany"])
        #expect(result.status == 65)
        #expect(
            result.stderr.contains("'germany' is a country's name, not a code: Germany's storefront is 'de'"),
            "\(result.stderr)")
    }

    @Test(
        "a flag without its value exits 64 naming the flag",
        arguments: [
            ["roster", "--storefront"],
            ["roster", "--storefront", "--json"],
            ["roster", "--storefront="],
            ["status", "--socket"],
        ])
    func missingValue(arguments: [String]) throws {
        let result = try Ctl.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains("needs"))
        #expect(result.stderr.contains("usage: showcasectl"))
    }

    @Test("a roster without --storefront exits 64 saying the flag is required")
    func requiredStorefront() throws {
        let result = try Ctl.run(["roster"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("roster needs --storefront"))
    }

    @Test("a platform other than ios or macos exits 64 naming the value", arguments: ["windows", "iOS17", ""])
    func badPlatform(value: String) throws {
        let result = try Ctl.run(["roster", "--storefront", "de", "--platform=\(value)"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--platform"))
        #expect(result.stderr.contains("usage: showcasectl"))
    }

    @Test(
        "a --wait that is not a number of seconds exits 64", arguments: ["-1", "soon", "1e3", "nan", "10s", "999999"])
    func badWait(value: String) throws {
        let result = try Ctl.run(["roster", "--storefront", "de", "--wait", value])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--wait"))
    }

    @Test(
        "an OS version, device or locale that cannot be one exits 64",
        arguments: [
            ["--os-version", "seventeen"], ["--os-version", "17..0"], ["--os-version", "1234567.0"], ["--locale", "x"],
            ["--locale", "de DE"],
            ["--device", "iwatch"], ["--device", ""], ["--device", "mac"],
        ])
    func badFilters(pair: [String]) throws {
        let result = try Ctl.run(["roster", "--storefront", "de"] + pair)
        #expect(result.status == 64)
        #expect(result.stderr.contains(pair[0]))
    }

    @Test("--device takes the five families showcasectl(1) lists; mac is refused with a pointer to --platform macos")
    func deviceMac() throws {
        let result = try Ctl.run(["roster", "--storefront", "de", "--device", "Mac"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--device must be one of iphone, ipad, watch, tv, vision, found 'Mac'"))
        #expect(result.stderr.contains("--platform macos"), "\(result.stderr)")
        let help = try Ctl.run(["roster", "--help"])
        #expect(help.stdout.contains("--device iphone|ipad|watch|tv|vision"), "\(help.stdout)")
    }

    @Test("an app id that is not a positive integer exits 64", arguments: ["notejar", "-5", "0", "12.5"])
    func badAppID(value: String) throws {
        let result = try Ctl.run(["app", "--storefront", "de", "--", value])
        #expect(result.status == 64)
        #expect(result.stderr.contains("app id"))
    }

    @Test("a second positional argument or a repeated flag exits 64")
    func extraArguments() throws {
        #expect(try Ctl.run(["status", "now"]).status == 64)
        #expect(try Ctl.run(["app", "1", "2", "--storefront", "de"]).status == 64)
        #expect(try Ctl.run(["roster", "--storefront", "de", "--storefront", "jp"]).status == 64)
    }

    @Test("no command exits 64 and lists the commands")
    func noCommand() throws {
        let result = try Ctl.run([])
        #expect(result.status == 64)
        for command in Ctl.specCommands {
            #expect(result.stderr.contains(command))
        }
    }

    @Test("an unknown command exits 64 and suggests the closest one")
    func unknownCommand() throws {
        let result = try Ctl.run(["rooster", "--storefront", "de"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("unknown command 'rooster'"))
        #expect(result.stderr.contains("did you mean roster?"))
    }

    @Test("a storefront code that does not exist exits 65 naming it, without contacting a daemon")
    func unknownStorefront() throws {
        for code in ["xx", "Germany", "DEUX"] {
            let result = try Ctl.run(["roster", "--storefront", code])
            #expect(result.status == 65)
            #expect(result.stderr.contains("'\(code)'"))
            #expect(!result.stderr.contains("not running"))
        }
    }

    @Test(
        "storefronts are accepted as alpha-2 or alpha-3 in any case, in both flag forms",
        arguments: ["de", "DE", "De", "deu", "DEU", "dEu"])
    func storefrontSpellings(code: String) throws {
        // No daemon runs here: getting as far as "not running" (69) proves the line was accepted.
        let spaced = try Ctl.run(["roster", "--storefront", code])
        let joined = try Ctl.run(["roster", "--storefront=\(code)", "--platform", "MACOS"])
        #expect(spaced.status == 69)
        #expect(joined.status == 69)
    }

    @Test("global flags are accepted before and after the command")
    func globalFlagsAnywhere() throws {
        let dir = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("none.sock").path
        let before = try Ctl.run(["--json", "--socket", socket, "status"])
        let after = try Ctl.run(["status", "--socket=\(socket)", "--json"])
        #expect(before.status == 69)
        #expect(after.status == 69)
        #expect(before.stderr.contains(socket))
        #expect(after.stderr.contains(socket))
    }
}
