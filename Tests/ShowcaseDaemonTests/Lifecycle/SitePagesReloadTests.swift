import Foundation
import ShowcaseConfig
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

/// `export.site.pages` (SPEC §18): the Markdown files are read when the configuration is loaded, so an edit takes
/// effect on `showcasectl reload`, and a reload that cannot read one is rejected like any invalid configuration.
@Suite("Site pages on reload", .serialized)
struct SitePagesReloadTests {
    /// The `export:` section naming `support.md` (beside the configuration) as app 1641000101's support page.
    static func export(in directory: URL) -> String {
        """
        export:
          directory: \(directory.appendingPathComponent("export").path)
          site:
            url: https://example.com/apps/
            pages:
              1641000101: {support: support.md}
        """
    }

    /// The 1-based line of the configuration at `url` that names the page.
    static func pageLine(_ url: URL) throws -> Int? {
        let lines = try String(contentsOf: url, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        return lines.firstIndex { $0.contains("1641000101: {support: support.md}") }.map { $0 + 1 }
    }

    @Test("a reload re-reads an edited page; one whose page went missing is rejected and the old text kept")
    func reloadRereads() async throws {
        let bed = try TestBed()
        bed.extra = Self.export(in: bed.directory)
        try bed.writeConfig()
        let page = bed.directory.appendingPathComponent("support.md")
        try "# Support\n\nWrite to us.\n".write(to: page, atomically: true, encoding: .utf8)
        let path = bed.configURL.path
        let configuration = try ConfigLoader.load(path: path)
        let runtime = DaemonRuntime(
            configuration: configuration, configPath: path,
            load: { () throws(ConfigErrors) in
                try ConfigLoader.load(path: path)
            }, transport: { _ in FixtureLookup() }, clock: ManualClock(), jitter: { 0.5 },
            log: DaemonLog(environment: [:]), notifier: SystemdNotifier(environment: [:]))
        func support() -> String? {
            runtime.state.config.configuration.export?.site?.pages[1_641_000_101]?.support?.text
        }
        #expect(support() == "# Support\n\nWrite to us.\n")

        try "# Support\n\n| Plan | Reply |\n|---|---|\n| Free | 2 days |\n".write(
            to: page, atomically: true, encoding: .utf8)
        guard case .success(let generation) = await runtime.reload.reload(trigger: "test") else {
            Issue.record("the reload with the edited page was rejected")
            return
        }
        #expect(generation == 2)
        #expect(support() == "# Support\n\n| Plan | Reply |\n|---|---|\n| Free | 2 days |\n")

        try FileManager.default.removeItem(at: page)
        guard case .failure(let errors) = await runtime.reload.reload(trigger: "test") else {
            Issue.record("the reload without the page was accepted")
            return
        }
        #expect(errors.first.code == .unreadable)
        let line = try Self.pageLine(bed.configURL)
        #expect(errors.first.file == path && errors.first.line == line)
        #expect(errors.first.message.contains(page.path))
        #expect(runtime.state.config.generation == 2)
        #expect(support() == "# Support\n\n| Plan | Reply |\n|---|---|\n| Free | 2 days |\n")
    }

    @Test("the daemon answers a reload whose page is missing with ConfigInvalid at the page's line and keeps going")
    func daemonRejectsMissingPage() throws {
        let bed = try TestBed()
        bed.extra = Self.export(in: bed.directory)
        let page = bed.directory.appendingPathComponent("support.md")
        try "# Support\n".write(to: page, atomically: true, encoding: .utf8)
        try bed.start()
        #expect(try bed.reload().int("generation") == 2)

        try FileManager.default.removeItem(at: page)
        let reply = try bed.reload()
        #expect(reply.error == "io.showcase.Admin.ConfigInvalid", "\(reply)")
        #expect(reply.string("file") == bed.configURL.path)
        let line = try Self.pageLine(bed.configURL)
        #expect(line != nil && reply.int("line") == line)
        #expect(reply.string("message")?.contains("support.md") == true)
        let status = try bed.status()
        #expect(status.int("configGeneration") == 2)
        #expect((status.string("lastReloadError") ?? "").contains(page.path))

        try "# Support, again\n".write(to: page, atomically: true, encoding: .utf8)
        #expect(try bed.reload().int("generation") == 3)
        #expect(try bed.status()["lastReloadError"] == nil)
    }
}
