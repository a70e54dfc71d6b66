import Foundation
import ShowcaseCore
import ShowcaseExport
import Testing

/// `export.html`'s files through the writer: what the daemon hands it when the key is on.
@Suite("Web surfaces through the writer")
struct WebSurfacesTests {
    @Test("writes each document's fragment and email variant and the host's banner, with mirrored icons and genres")
    func writes() throws {
        let directory = try TemporaryDirectory()
        var app = Samples.lanternlight
        app.genreId = 6002
        var roster = Samples.roster()
        roster.hostAppId = 1_641_000_101
        roster.content = .current(
            revision: 1, revisedAt: Samples.revisedAt,
            apps: [
                .ios: [
                    ExportedApp(
                        ResolvedApp(app: app, storeUrl: app.storeUrl, tagline: "Tide light"),
                        icons: [128: "icons/00000000000000ab.jpg"])
                ]
            ])
        let writer = ExportWriter(
            directory: directory.path, renderers: WebSurfaces.documentRenderers,
            hostRenderers: WebSurfaces.hostRenderers, publicURL: "https://example.com/showcase/v1/")
        // The writer lists only icons that are in the tree (SPEC §16): this one is handed to the pass, as the
        // daemon hands it an icon it fetched.
        var memory = ExportMemory()
        let report = writer.export(
            [roster], icons: ["icons/00000000000000ab.jpg": Data([0xFF, 0xD8, 0xFF])], remembering: &memory)
        #expect(report.errors.isEmpty)
        let base = "v1/\(Samples.host)/us/"
        let html = String(decoding: try directory.read(base + "ios.html"), as: UTF8.self)
        #expect(html.contains(#"src="https://example.com/showcase/v1/icons/00000000000000ab.jpg""#))
        #expect(html.contains(#""applicationCategory":"UtilitiesApplication""#))
        let email = String(decoding: try directory.read(base + "ios.email.html"), as: UTF8.self)
        #expect(email.contains(#"src="https://example.com/showcase/v1/icons/00000000000000ab.jpg""#))
        #expect(try directory.read(base + "macos.html").isEmpty, "no Mac app: an empty file")
        #expect(try directory.read(base + "macos.email.html").isEmpty)
        #expect(directory.exists(base + "ios.html.gz"))
        #expect(
            String(decoding: try directory.read("v1/\(Samples.host)/banner.html"), as: UTF8.self)
                == "<meta name=\"apple-itunes-app\" content=\"app-id=1641000101\">\n")
    }
}
