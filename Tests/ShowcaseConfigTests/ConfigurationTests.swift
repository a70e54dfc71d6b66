import Foundation
import ShowcaseConfig
import ShowcaseCore
import Testing

@Suite("Configuration keys and defaults")
struct ConfigurationTests {
    @Test("applies every default when only hosts are given")
    func defaults() throws {
        let configuration = try load(minimalHosts)
        #expect(configuration.hosts.map(\.bundleID) == ["com.quietharbor.NoteJar"])
        #expect(configuration.hosts[0].appID == nil)
        #expect(configuration.storefronts == [try Storefront(parsing: "us")])
        #expect(configuration.defaultPlatform == .ios)
        #expect(configuration.refresh == RefreshSchedule(interval: .seconds(86_400), jitter: 0.1, retry: .seconds(300)))
        #expect(configuration.lookup.endpoint.absoluteString == "https://itunes.apple.com/lookup")
        #expect(configuration.lookup.timeout == .seconds(10))
        #expect(configuration.lookup.rateLimit == RateLimit(requests: 20, per: .seconds(60)))
        #expect(configuration.lookup.maxResponseBytes == 8 << 20)
        #expect(configuration.cache.directory == "/home/tester/.cache/showcase")
        #expect(configuration.socket.path == "/run/user/1000/showcase/showcased.sock")
        #expect(configuration.socket.mode == 0o660)
        #expect(configuration.socket.adminUIDs == [])
        #expect(configuration.attribution == Attribution())
        #expect(configuration.overlay == .empty)
        #expect(configuration.overlayFile == nil)
        #expect(configuration.hosts[0].overlay == .empty)
    }

    @Test("reads every key of a full configuration")
    func fullConfiguration() throws {
        let configuration = try ConfigLoader.load(path: fixture("valid/full.yaml"), defaults: testDefaults)
        #expect(configuration.hosts.map(\.bundleID) == ["com.quietharbor.NoteJar", "com.quietharbor.Brewlog"])
        #expect(configuration.hosts.map(\.appID) == [1_234_567_890, 2_222_222_222])
        #expect(configuration.storefronts.map(\.code) == ["us", "de", "jp"])
        #expect(configuration.defaultPlatform == .macos)
        #expect(configuration.refresh.interval == .seconds(43_200))
        #expect(configuration.refresh.jitter == 0.05)
        #expect(configuration.refresh.retry == .seconds(30))
        #expect(configuration.lookup.endpoint.absoluteString == "http://127.0.0.1:8080/lookup")
        #expect(configuration.lookup.timeout == .milliseconds(1500))
        #expect(configuration.lookup.rateLimit == RateLimit(requests: 2, per: .seconds(1)))
        #expect(configuration.lookup.maxResponseBytes == 512 * 1024)
        #expect(
            configuration.lookup.artworkHosts.map(\.text) == [
                "https://*.mzstatic.com/", "http://127.0.0.1:8080/icons/",
            ])
        #expect(configuration.cache.directory == fixture("valid/cache"))
        #expect(configuration.socket.path == "/tmp/showcase-test/showcased.sock")
        #expect(configuration.socket.mode == 0o600)
        #expect(configuration.socket.adminUIDs == [1000, 1001])
        #expect(configuration.attribution == Attribution(providerToken: "1234567", campaignToken: "newsletter"))
        #expect(configuration.overlayFile == fixture("valid/overlays/global.yaml"))
        #expect(configuration.hosts[0].overlayFile == fixture("valid/overlays/notejar.yaml"))
        #expect(
            configuration.overlayFiles == [
                fixture("valid/overlays/global.yaml"), fixture("valid/overlays/notejar.yaml"),
            ])
    }

    @Test("takes the scalar all as every App Store storefront")
    func allStorefronts() throws {
        #expect(try load(minimalHosts + "storefronts: all\n").storefronts == Storefront.all)
        #expect(try load(minimalHosts + "storefronts: \"ALL\"\n").storefronts == Storefront.all)
    }

    @Test("accepts alpha-3 codes in any case and keeps the order written")
    func storefrontCodes() throws {
        let configuration = try load(minimalHosts + "storefronts: [JPN, De, usa]\n")
        #expect(configuration.storefronts.map(\.code) == ["jp", "de", "us"])
    }

    @Test("allows an empty storefront list: nothing kept warm, everything fetched on demand")
    func emptyStorefronts() throws {
        #expect(try load(minimalHosts + "storefronts: []\n").storefronts.isEmpty)
    }

    @Test("treats an explicit null as the key's default")
    func nullMeansDefault() throws {
        let configuration = try load(
            minimalHosts + "storefronts: ~\nrefresh:\n  interval: null\nattribution:\n  campaign_token: null\n")
        #expect(configuration.storefronts.map(\.code) == ["us"])
        #expect(configuration.refresh.interval == .seconds(86_400))
        #expect(configuration.attribution.campaignToken == nil)
    }

    @Test("reads default_platform in any case")
    func platform() throws {
        #expect(try load(minimalHosts + "default_platform: macOS\n").defaultPlatform == .macos)
    }

    @Test("reads a quoted app id as the same integer")
    func quotedAppID() throws {
        let configuration = try load("hosts:\n  - bundle_id: com.a.B\n    app_id: \"42\"\n")
        #expect(configuration.hosts[0].appID == 42)
    }

    @Test("resolves relative cache and socket paths against the configuration's directory")
    func relativePaths() throws {
        let directory = try TemporaryDirectory(files: [
            "conf/showcase.yaml": minimalHosts + "cache:\n  directory: state/cache\nsocket:\n  path: run/s.sock\n"
        ])
        let configuration = try ConfigLoader.load(path: directory.file("conf/showcase.yaml"), defaults: testDefaults)
        #expect(configuration.cache.directory == directory.file("conf/state/cache"))
        #expect(configuration.socket.path == directory.file("conf/run/s.sock"))
    }

    @Test("does not need the cache directory or socket directory to exist")
    func pathsNeedNotExist() throws {
        let configuration = try load(
            minimalHosts + "cache:\n  directory: /nonexistent/cache\nsocket:\n  path: /nonexistent/run/s.sock\n")
        #expect(configuration.cache.directory == "/nonexistent/cache")
        #expect(configuration.socket.path == "/nonexistent/run/s.sock")
    }

    @Test("keeps hosts in file order and defaults to the first")
    func hostLookup() throws {
        let configuration = try load("hosts:\n  - bundle_id: com.a.One\n  - bundle_id: com.a.Two\n")
        #expect(configuration.defaultHost.bundleID == "com.a.One")
        #expect(configuration.hosts.map(\.bundleID) == ["com.a.One", "com.a.Two"])
    }

    @Test("summarizes hosts, storefronts and overlay entries in one line")
    func summary() throws {
        let configuration = try ConfigLoader.load(path: fixture("valid/full.yaml"), defaults: testDefaults)
        // global: 2 pinned + 1 excluded + 2 taglines; NoteJar: 2 pinned + 1 excluded + 1 tagline.
        #expect(configuration.overlayEntryCount == 9)
        #expect(
            configuration.summary
                == "2 hosts (com.quietharbor.NoteJar, com.quietharbor.Brewlog), 3 storefronts (us, de, jp), 9 overlay entries"
        )
    }
}
