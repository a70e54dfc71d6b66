import Foundation
import ShowcaseConfig
import ShowcaseCore
import Testing

/// `export.site` (SPEC §4, §18): the site's URL, title and the Markdown files of its support and privacy pages,
/// read when the configuration is loaded.
@Suite("The export.site section")
struct SiteSettingsTests {
    static let export = minimalHosts + "export:\n  directory: /srv/export\n"
    /// `export.site` with `url` and then `rest` (lines indented for the section).
    static func site(_ rest: String = "", url: String = "https://example.com/apps/") -> String {
        export + "  site:\n    url: \(url)\n" + rest
    }

    @Test("writes no site when the section is absent or null")
    func absent() throws {
        #expect(try load(Self.export).export?.site == nil)
        #expect(try load(Self.export + "  site: null\n").export?.site == nil)
    }

    @Test("reads url (ending in /), title and pages, the files relative to the configuration, a shared file once")
    func reads() throws {
        let yaml = Self.site(
            "    title: Quiet Harbor\n    pages:\n"
                + "      1641000101: {support: pages/support.md, privacy: pages/privacy.md}\n"
                + "      \"1641000102\":\n        privacy: pages/privacy.md\n",
            url: "https://example.com:8443/apps")
        let directory = try TemporaryDirectory(files: [
            "showcase.yaml": yaml, "pages/support.md": "# Support\n\n| a | b |\n|---|---|\n",
            "pages/privacy.md": "# Privacy ✓\n",
        ])
        let configuration = try ConfigLoader.load(path: directory.file("showcase.yaml"), defaults: testDefaults)
        let site = try #require(configuration.export?.site)
        #expect(site.url == "https://example.com:8443/apps/")
        #expect(site.title == "Quiet Harbor")
        let support = MarkdownSource(
            path: directory.file("pages/support.md"), text: "# Support\n\n| a | b |\n|---|---|\n")
        let privacy = MarkdownSource(path: directory.file("pages/privacy.md"), text: "# Privacy ✓\n")
        #expect(
            site.pages == [
                1_641_000_101: SitePages(support: support, privacy: privacy),
                1_641_000_102: SitePages(privacy: privacy),
            ])
        #expect(try load(Self.site()).export?.site == SiteSettings(url: "https://example.com/apps/"))
    }

    @Test("refuses a site without a url, naming the key and an example")
    func missingURL() throws {
        let error = try onlyError(Self.export + "  site:\n    title: Quiet Harbor\n")
        #expect(error?.code == .missing)
        #expect(error?.line == 6 && error?.column == 5)
        #expect(error?.message.contains("'export.site' has no 'url'") == true)
        #expect(error?.message.contains("url: https://example.com/apps/") == true)
    }

    @Test(
        "refuses a url that is not absolute https with a host, or carries userinfo, a query or a fragment",
        arguments: [
            ("http://example.com/apps/", "must be an absolute https URL"), ("/apps/", "must be an absolute https URL"),
            ("example.com/apps/", "must be an absolute https URL"), ("https:///apps/", "has no usable host"),
            ("https://user@example.com/", "has no usable host"), ("https://example.com:99999/", "has no usable host"),
            ("https://example.com/apps/?x=1", "may not contain '?'"),
            ("https://example.com/#top", "may not contain '#'"),
            ("https://exa mple.com/", "has no usable host"), ("https://example.com/a b/", "may not contain ' '"),
        ])
    func badURL(value: String, message: String) throws {
        let error = try onlyError(Self.site(url: "\"\(value)\""))
        #expect(error?.code == .invalidValue)
        #expect(error?.line == 6 && error?.column == 10)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "no error")")
        #expect(error?.message.contains("https://example.com/apps/") == true, "\(error?.message ?? "no error")")
    }

    @Test("refuses a title that is not a string or longer than a name may be")
    func badTitle() throws {
        let mapping = try onlyError(Self.site("    title: {name: x}\n"))
        #expect(mapping?.code == .typeMismatch && mapping?.line == 7)
        let long = try onlyError(Self.site("    title: \(String(repeating: "a", count: 256))\n"))
        #expect(long?.code == .invalidValue && long?.line == 7)
        #expect(long?.message.contains("at most 255 characters") == true)
        let fits = try load(Self.site("    title: \(String(repeating: "é", count: 255))\n"))
        #expect(fits.export?.site?.title?.count == 255)
    }

    @Test("refuses page keys that are not app ids, repeated ids, values that are not mappings and unknown keys")
    func badPages() throws {
        let files = ["p.md": "# P\n"]
        let notMapping = try #require(try onlyError(Self.site("    pages: [p.md]\n"), files: files))
        #expect(notMapping.code == .typeMismatch && notMapping.line == 7)
        let all = try errors(
            Self.site(
                "    pages:\n      abc: {support: p.md}\n      0: {support: p.md}\n      12: p.md\n"
                    + "      13: {suport: p.md}\n      14: {privacy: p.md}\n      \"14\": {support: p.md}\n"),
            files: files)
        #expect(all.map(\.code) == [.typeMismatch, .typeMismatch, .typeMismatch, .unknownKey, .duplicate])
        #expect(all.map(\.line) == [8, 9, 10, 11, 13])
        #expect(
            all[3].message.contains(
                "unknown key 'export.site.pages.13.suport'; did you mean 'export.site.pages.13.support'?"))
        #expect(all[4].message.contains("app 14 is already in 'export.site.pages' at line 12"))
    }

    @Test("refuses a missing file, a directory, a FIFO (without blocking), a non-UTF-8 file and one over 256 KiB")
    func badFiles() throws {
        let directory = try TemporaryDirectory(files: [
            "big.md": String(repeating: "a", count: TextBound.markdownBytes + 1),
            "edge.md": String(repeating: "a", count: TextBound.markdownBytes), "folder/x.md": "",
        ])
        try Data([0x23, 0x20, 0xC3, 0x28, 0x0A]).write(to: URL(fileURLWithPath: directory.file("latin.md")))
        #expect(mkfifo(directory.file("fifo.md"), 0o600) == 0)
        let yaml = Self.site(
            "    pages:\n      1: {support: missing.md, privacy: folder}\n      2: {support: fifo.md}\n"
                + "      3: {support: latin.md, privacy: big.md}\n      4: {support: edge.md}\n")
        try directory.write("showcase.yaml", yaml)
        let path = directory.file("showcase.yaml")
        var errors: [ConfigError] = []
        do {
            _ = try ConfigLoader.load(path: path, defaults: testDefaults)
        } catch {
            errors = error.errors
        }
        #expect(errors.map(\.code) == [.unreadable, .unreadable, .unreadable, .invalidValue, .limitExceeded])
        #expect(errors.map(\.line) == [8, 8, 9, 10, 10])
        #expect(errors.map(\.column) == [20, 41, 20, 20, 39])
        #expect(errors.map(\.file) == Array(repeating: path, count: 5))
        let messages = errors.map(\.message)
        guard messages.count == 5 else { return }
        #expect(
            messages[0]
                == "'export.site.pages.1.support': cannot read '\(directory.file("missing.md"))': no such file; check the path"
        )
        #expect(messages[1].contains("'\(directory.file("folder"))': it is a directory"))
        #expect(messages[2].contains("'\(directory.file("fifo.md"))': it is a FIFO (named pipe)"))
        #expect(
            messages[3]
                == "'export.site.pages.3.support': '\(directory.file("latin.md"))' is not UTF-8 text; save it as UTF-8")
        #expect(
            messages[4]
                == "'export.site.pages.3.privacy': '\(directory.file("big.md"))' is larger than 256 KiB, the limit for a page's Markdown"
        )
    }

    @Test("refuses Markdown over 16 MiB in all, counting a file named twice once")
    func totalBound() throws {
        let page = String(repeating: "a", count: TextBound.markdownBytes)
        var files: [String: String] = [:]
        var lines = "    pages:\n"
        for index in 1...65 {
            files["p\(index).md"] = page
            lines += "      \(index): {support: p\(index).md, privacy: p1.md}\n"
        }
        let all = try errors(Self.site(lines), files: files)
        #expect(all.map(\.code) == [.limitExceeded])
        #expect(all.first?.line == 8 + 64)
        #expect(all.first?.message.contains("over 16 MiB in all") == true)
    }

    @Test("rejects the invalid site fixture with every mistake at its line and column")
    func fixtureErrors() {
        let all = errors(inFixture: "invalid/bad-site.yaml")
        #expect(
            all.map(\.code) == [
                .invalidValue, .typeMismatch, .unreadable, .unknownKey, .typeMismatch, .unreadable, .typeMismatch,
            ])
        #expect(all.map { "\($0.line):\($0.column)" } == ["6:10", "7:12", "9:29", "9:46", "10:7", "11:29", "12:19"])
    }
}
