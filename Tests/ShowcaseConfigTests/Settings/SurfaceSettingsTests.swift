import Foundation
import ShowcaseConfig
import Testing

/// The keys of SPEC §4 for the web fragments, feeds, icons and change history: `export.html`, `export.feed`,
/// `export.public_url`, `export.icons`, `state.directory` and `history.keep`.
@Suite("Web, feed, icon and history settings")
struct SurfaceSettingsTests {
    static let export = minimalHosts + "export:\n  directory: /srv/export\n"

    @Test("html, feed and icons are off and public_url is /showcase/v1/ unless set")
    func defaults() throws {
        let settings = try #require(try load(Self.export).export)
        #expect(!settings.html && !settings.feed && settings.icons == nil)
        #expect(settings.publicURL == "/showcase/v1/" && !settings.publicURLIsAbsolute)
        let configuration = try load(minimalHosts)
        #expect(configuration.history.keep == 100)
    }

    @Test("reads every key, adding the trailing slash to public_url and sorting icon sizes")
    func reads() throws {
        let yaml =
            Self.export
            + "  html: true\n  feed: true\n  public_url: https://example.com:8443/apps/v1\n"
            + "  icons:\n    sizes: [256, 128, 256]\n    max_bytes: 512KiB\n"
            + "state:\n  directory: /srv/state\nhistory:\n  keep: 10000\n"
        let configuration = try load(yaml)
        let settings = try #require(configuration.export)
        #expect(settings.html && settings.feed)
        #expect(settings.publicURL == "https://example.com:8443/apps/v1/" && settings.publicURLIsAbsolute)
        #expect(settings.icons == IconSettings(sizes: [128, 256], maxBytes: 512 << 10))
        #expect(configuration.state.directory == "/srv/state")
        #expect(configuration.history.keep == 10_000)
    }

    @Test("sizes: [] turns icon mirroring off")
    func emptySizes() throws {
        #expect(try load(Self.export + "  icons:\n    sizes: []\n").export?.icons == nil)
    }

    @Test("a relative state.directory is taken relative to the configuration file")
    func relativeState() throws {
        let directory = try TemporaryDirectory(files: ["showcase.yaml": minimalHosts + "state:\n  directory: st\n"])
        let configuration = try ConfigLoader.load(path: directory.file("showcase.yaml"))
        #expect(configuration.state.directory == directory.file("st"))
    }

    @Test(
        "refuses a public_url that is neither a path nor an https URL, or that carries a query or quote",
        arguments: [
            ("showcase/v1/", "must be an absolute path"), ("http://example.com/v1/", "must be an absolute path"),
            ("https:///v1/", "has no usable host"), ("https://user@example.com/v1/", "has no usable host"),
            ("https://example.com:99999/", "has no usable host"), ("/v1/?x=1", "may not contain '?'"),
            ("/v1/\\\"x", "may not contain '\"'"), ("/v1/#top", "may not contain '#'"),
        ])
    func badPublicURL(value: String, message: String) throws {
        let error = try onlyError(Self.export + "  public_url: \"\(value)\"\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.line == 5)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "no error")")
    }

    @Test(
        "refuses icon sizes outside 16...1024 or not numbers, and a bad max_bytes",
        arguments: ["[8]", "[2048]", "[big]", "128"])
    func badSizes(sizes: String) throws {
        let error = try onlyError(Self.export + "  icons:\n    sizes: \(sizes)\n")
        #expect(error != nil)
        #expect(error?.message.contains("export.icons.sizes") == true, "\(error?.message ?? "no error")")
    }

    @Test(
        "refuses history.keep outside 1...10000 and unknown keys with a suggestion", arguments: ["0", "10001", "many"])
    func badKeep(keep: String) throws {
        let error = try onlyError(minimalHosts + "history:\n  keep: \(keep)\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.message.contains("'history.keep' must be a whole number from 1 to 10000") == true)
    }

    @Test("a misspelt key in the new sections gets a did-you-mean")
    func didYouMean() throws {
        let icons = try onlyError(Self.export + "  icons:\n    size: [128]\n")
        #expect(icons?.message.contains("did you mean 'export.icons.sizes'?") == true, "\(icons?.message ?? "")")
        let state = try onlyError(minimalHosts + "state:\n  directroy: /x\n")
        #expect(state?.message.contains("did you mean 'state.directory'?") == true, "\(state?.message ?? "")")
    }
}
