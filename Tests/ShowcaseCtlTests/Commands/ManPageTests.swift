import Foundation
import ShowcaseAPI
import ShowcaseConfig
import ShowcaseCore
import Testing

/// The man pages render with `man -l` without warnings and document the contract.
@Suite("man pages", .enabled(if: Tool.find("man") != nil, "man is not installed (apt-get install man-db)"))
struct ManPageTests {
    static let pages = ["showcasectl.1", "showcased.8", "showcase.yaml.5"]

    static func render(_ page: String) throws -> CtlResult {
        let man = try #require(Tool.find("man"))
        let path = Ctl.packageRoot.appendingPathComponent("man/\(page)").path
        return try Tool.run(
            man, ["-l", path], environment: ["MANWIDTH": "80", "MAN_KEEP_FORMATTING": "", "LANG": "C.UTF-8"])
    }

    @Test("each page renders with man -l and no warnings", arguments: pages)
    func renders(page: String) throws {
        let result = try Self.render(page)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "man -l \(page) warned: \(result.stderr)")
        #expect(result.stdout.contains("NAME"))
        #expect(result.stdout.split(separator: "\n").count > 40)
    }

    @Test("each page passes groff's strictest warnings", arguments: pages)
    func groffClean(page: String) throws {
        let groff = try #require(Tool.find("groff"), "groff is not installed (apt-get install groff-base)")
        let path = Ctl.packageRoot.appendingPathComponent("man/\(page)").path
        let result = try Tool.run(groff, ["-man", "-ww", "-z", path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "groff warned about \(page): \(result.stderr)")
    }

    @Test("showcasectl(1) documents every command, flag and exit status of the contract")
    func showcasectlPage() throws {
        let text = try Self.render("showcasectl.1").stdout
        for command in Ctl.specCommands {
            #expect(text.contains("\n       \(command)"), "showcasectl(1) lacks \(command)")
        }
        for flag in Set(Ctl.specFlags.values.flatMap { $0 }) + ["--socket", "--json", "--config"] {
            #expect(text.contains(flag), "showcasectl(1) lacks \(flag)")
        }
        for status in ["0", "1", "64", "65", "69", "75", "77", "78"] {
            #expect(
                text.contains("\n       \(status)\n") || text.contains("\n       \(status) "), "lacks exit \(status)")
        }
    }

    @Test("showcase.yaml(5) lists every label key with its English text, and says which languages are right to left")
    func labelKeys() throws {
        let text = try Self.render("showcase.yaml.5").stdout
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for key in LabelKey.allCases {
            let listed = lines.indices.dropLast().contains { lines[$0] == key.rawValue && lines[$0 + 1] == key.english }
            #expect(listed, "lacks \(key.rawValue): \(key.english)")
        }
        #expect(text.contains("(ar, he, fa, ur)") && text.contains("dir=\"rtl\""))
    }

    @Test("showcase.yaml(5) documents every configuration key")
    func configurationPage() throws {
        let text = try Self.render("showcase.yaml.5").stdout
        // Every key the readers accept, from their own lists: a key added to a reader and not documented fails here.
        let keys = Configuration.documentedKeys
        #expect(keys.contains("socket.max_connections_per_uid") && keys.contains("languages"), "\(keys)")
        for key in keys {
            #expect(text.contains(key), "showcase.yaml(5) lacks \(key)")
        }
    }

    @Test("showcased(8) and README's socket API name every method of both interfaces, Admin.Export included")
    func everyMethodDocumented() throws {
        let page = try Self.render("showcased.8").stdout
        let readme = try String(contentsOf: Ctl.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## The socket API").dropFirst().first)
            .components(separatedBy: "\n## ")[0]
        for idl in [ShowcaseInterfaces.roster, ShowcaseInterfaces.admin] {
            let methods = idl.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard words.first == "method", let name = words.dropFirst().first?.split(separator: "(").first
                else { return nil }
                return String(name)
            }
            #expect(methods.count >= 4, "\(idl)")
            for method in methods {
                // A whole word: "ExportNotConfigured" does not document Export.
                let word = page.range(of: "\\b\(method)\\b", options: .regularExpression)
                #expect(word != nil, "showcased(8) lacks \(method)")
                #expect(section.contains("`\(method)`"), "README's socket API lacks \(method)")
            }
        }
    }

    @Test("showcased(8) documents every flag and exit status the daemon's --help names")
    func showcasedPage() throws {
        try RealDaemon.requireBuilt()
        let help = try Tool.run(RealDaemon.binary, ["--help"]).stdout
        let flags = Set(
            help.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "|" }).filter { $0.hasPrefix("--") })
        #expect(flags.contains("--cache-dir"))
        let text = try Self.render("showcased.8").stdout
        for flag in flags {
            #expect(text.contains(flag), "showcased(8) lacks \(flag)")
        }
        let statuses = try #require(help.range(of: "Exit status:")).upperBound
        for number in help[statuses...].split(whereSeparator: { !$0.isNumber }) {
            #expect(
                text.contains("\n       \(number)  ") || text.contains("\n       \(number)\n"), "lacks exit \(number)")
        }
    }
}
