import Foundation
import ShowcaseConfig
import ShowcaseCore
import Testing

@Suite("Example and fixture configurations")
struct ExampleFilesTests {
    let examples = packageRoot.appendingPathComponent("etc/showcase").path

    @Test("loads the installed example configuration with the values its comments describe")
    func exampleConfiguration() throws {
        let configuration = try ConfigLoader.load(path: examples + "/showcase.yaml", defaults: testDefaults)
        #expect(configuration.hosts.map(\.bundleID) == ["com.quietharbor.NoteJar", "com.quietharbor.Brewlog"])
        #expect(configuration.storefronts.map(\.code) == ["us", "de", "jp"])
        #expect(configuration.refresh == RefreshSchedule())
        #expect(configuration.lookup == LookupSettings())
        #expect(configuration.cache.directory == "/var/cache/showcase")
        #expect(configuration.socket == SocketSettings(path: "/run/showcase/showcased.sock"))
        #expect(configuration.attribution == Attribution(providerToken: nil))
        #expect(configuration.overlayFile == examples + "/overlay.yaml")
    }

    @Test("loads the example configuration's commented export section once uncommented")
    func exampleExportSection() throws {
        let text = try String(contentsOfFile: examples + "/showcase.yaml", encoding: .utf8)
        var inBlock = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            if line == "#export:" { inBlock = true }
            if line.isEmpty { inBlock = false }
            return inBlock ? line.dropFirst() : line
        }
        #expect(lines.contains("export:"))
        let directory = try TemporaryDirectory(
            files: ["showcase.yaml": lines.joined(separator: "\n"), "overlay.yaml": "", "overlays/notejar.yaml": ""])
        let configuration = try ConfigLoader.load(path: directory.file("showcase.yaml"), defaults: testDefaults)
        #expect(
            configuration.export
                == ExportSettings(
                    directory: "/var/lib/showcase/export", gzip: true, icons: IconSettings(sizes: [128, 256])))
    }

    @Test("loads the example overlay with both tagline forms")
    func exampleOverlay() throws {
        let overlay = try ConfigLoader.loadOverlay(path: examples + "/overlay.yaml")
        #expect(overlay.order == [1_234_567_890, 2_222_222_222])
        #expect(overlay.excluded == [9_876_543_210])
        #expect(overlay.taglines[1_234_567_890] == .plain("Notes in a jar"))
        #expect(
            overlay.taglines[2_222_222_222]
                == .localized(
                    default: "Coffee, dialled in",
                    byLocale: ["de": "Kaffee, eingestellt", "ja": "コーヒーを、ちょうどよく"]))
    }

    @Test(
        "loads every valid fixture and the demo configuration",
        arguments: [
            "valid/minimal.yaml", "valid/full.yaml", "valid/inline-overlay.yaml", "../demo/showcase.yaml",
        ])
    func validFixtures(name: String) throws {
        let configuration = try ConfigLoader.load(path: fixture(name), defaults: testDefaults)
        #expect(!configuration.hosts.isEmpty)
    }

    @Test("the demo configuration's site has TideLog's support and privacy pages, read from beside it")
    func demoSite() throws {
        let configuration = try ConfigLoader.load(path: fixture("../demo/showcase.yaml"), defaults: testDefaults)
        let site = try #require(configuration.export?.site)
        #expect(site.url == "https://apps.quietharbor.example/")
        let pages = try #require(site.pages[1_641_000_101])
        #expect(pages.support?.path.hasSuffix("/demo/support.md") == true)
        #expect(pages.support?.text.hasPrefix("# TideLog support\n") == true)
        #expect(pages.privacy?.text.hasPrefix("# TideLog privacy policy\n") == true)
    }

    @Test(
        "rejects every invalid fixture",
        arguments: [
            "invalid/alias-bomb.yaml", "invalid/bad-bundle-ids.yaml", "invalid/bad-indentation.yaml",
            "invalid/bad-languages.yaml", "invalid/bad-overlay.yaml", "invalid/many-errors.yaml",
            "invalid/missing-overlay.yaml", "invalid/multiple-documents.yaml", "invalid/no-hosts.yaml",
            "invalid/tab-indentation.yaml", "invalid/bad-site.yaml",
        ])
    func invalidFixtures(name: String) throws {
        #expect(throws: ConfigErrors.self) { try ConfigLoader.load(path: fixture(name), defaults: testDefaults) }
    }
}
