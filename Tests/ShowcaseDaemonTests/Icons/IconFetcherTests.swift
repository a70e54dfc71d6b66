import Foundation
import Locking
import LookupReplay
import ShowcaseConfig
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

/// The image fetcher against the loopback replay, which draws invented icons at Apple-shaped paths and misbehaves
/// on demand: every refused case has its own test, and each proves what was (not) requested from the replay's log.
@Suite("Icon fetcher: only allowed hosts, no redirects, bounded bytes and time, checked images")
struct IconFetcherTests {
    /// A fetcher over the real libcurl transport, allowed to fetch from the replay only, performing the downloads
    /// of an exporting daemon's state.
    final class Harness: Sendable {
        let replay: LookupReplayServer
        let fetcher: IconFetcher
        let settings: IconFetcher.Settings
        /// How many times the state asked the exporter to look at its schedule again (an icon ready).
        let readyCount = LockedBox(0)

        init(maxBytes: Int = 1 << 20, timeout: Duration = .seconds(10)) throws {
            replay = try LookupReplayServer(fixtures: TestBed.fixtures)
            let ready = readyCount
            var configuration = InProcessFixtures.configuration()
            configuration.export = ExportSettings(directory: "/in-process/export")
            let owner = StateOwnerTests.owner(configuration)
            owner.observe { $0.exportScheduleChanged = { ready.withLock { $0 += 1 } } }
            fetcher = IconFetcher(
                state: owner, transport: CurlImageTransport(version: "test"), log: DaemonLog(environment: [:]))
            let prefix = try URLPrefix(parsing: "http://127.0.0.1:\(replay.port)/")
            settings = IconFetcher.Settings(
                rules: URLRules(artworkHosts: [prefix]), maxBytes: maxBytes, timeout: timeout)
        }

        deinit { replay.stop() }

        /// An artwork URL of an invented app on the replay.
        func source(_ app: Int) -> String {
            "http://127.0.0.1:\(replay.port)/image/thumb/Purple211/v4/\(app)/AppIcon.png/512x512bb.jpg"
        }

        func request(_ app: Int, size: Int = 128, round: Date = Date(timeIntervalSince1970: 1)) -> IconFetcher.Request {
            IconFetcher.Request(key: IconKey(source: source(app), size: size), appId: app, round: round)
        }

        /// Waits (bounded against hangs) until `count` requests have ended, whatever their result.
        func ended(_ count: Int) async -> IconFetcher.Counters {
            for _ in 0..<6000 {
                let counters = fetcher.counters
                if counters.ok + counters.refused + counters.failed >= count, fetcher.pendingCount == 0 {
                    return counters
                }
                try? await Task.sleep(for: .milliseconds(5))
            }
            return fetcher.counters
        }

        var imageRequests: [RecordedRequest] { replay.requests.filter { $0.path.hasSuffix("bb.jpg") } }

        /// A file holding `bytes`, for the replay's `body` fault.
        func file(_ bytes: Data) throws -> String {
            let path = NSTemporaryDirectory() + "icon-body-\(UUID().uuidString)"
            try bytes.write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    @Test("fetches the size asked for, checks it and names it by its bytes")
    func fetchesAndNames() async throws {
        let harness = try Harness()
        harness.fetcher.want([harness.request(1)], settings: harness.settings)
        #expect(await harness.ended(1) == .init(ok: 1))
        let fetched = harness.fetcher.takeFetched()
        let icon = try #require(fetched[IconKey(source: harness.source(1), size: 128)])
        #expect(try ImageHeader.check(icon.bytes, size: 128).get().format == .png)
        #expect(icon.path == IconName.path(of: icon.bytes, format: .png))
        #expect(harness.imageRequests.map(\.path) == ["/image/thumb/Purple211/v4/1/AppIcon.png/128x128bb.jpg"])
        #expect(harness.imageRequests.first?.method == "GET")
        #expect(harness.readyCount.withLock { $0 } == 1)
    }

    @Test("refuses a body that is not an image")
    func refusesNonImage() async throws {
        let harness = try Harness()
        harness.replay.inject(.body(try harness.file(Data("<!doctype html><h1>Not here</h1>".utf8))), matching: "bb.")
        harness.fetcher.want([harness.request(2)], settings: harness.settings)
        #expect(await harness.ended(1) == .init(refused: 1, reasons: [.notImage: 1]))
        #expect(harness.fetcher.takeFetched().isEmpty)
    }

    @Test("refuses an image of another size than asked for")
    func refusesWrongSize() async throws {
        let harness = try Harness()
        let small = try #require(ReplayIcon.png(width: 64, height: 64, background: [1, 2, 3]))
        harness.replay.inject(.body(try harness.file(small)), matching: "bb.")
        harness.fetcher.want([harness.request(3)], settings: harness.settings)
        #expect(await harness.ended(1) == .init(refused: 1, reasons: [.wrongSize: 1]))
        #expect(harness.fetcher.takeFetched().isEmpty)
    }

    @Test("refuses a body over export.icons.max_bytes, cut while streaming")
    func refusesOversize() async throws {
        let harness = try Harness(maxBytes: 64)
        harness.fetcher.want([harness.request(4)], settings: harness.settings)
        #expect(await harness.ended(1) == .init(refused: 1, reasons: [.tooLarge: 1]))
        #expect(harness.imageRequests.count == 1)
    }

    @Test("refuses a redirect and never follows it")
    func refusesRedirect() async throws {
        let harness = try Harness()
        harness.replay.inject(
            .redirect(harness.source(99).replacingOccurrences(of: "512x512", with: "128x128")), matching: "/5/")
        harness.fetcher.want([harness.request(5)], settings: harness.settings)
        #expect(await harness.ended(1) == .init(refused: 1, reasons: [.redirect: 1]))
        #expect(harness.imageRequests.count == 1, "the redirect was followed")
    }

    @Test("cuts a server that trickles the body past lookup.timeout")
    func cutsTrickle() async throws {
        let harness = try Harness(timeout: .milliseconds(500))
        harness.replay.inject(.trickle(.milliseconds(200)), matching: "bb.")
        harness.fetcher.want([harness.request(6)], settings: harness.settings)
        #expect(await harness.ended(1) == .init(failed: 1, reasons: [.timeout: 1]))
        #expect(harness.fetcher.takeFetched().isEmpty)
    }

    @Test("counts a 5xx as failed, keeping nothing")
    func fails5xx() async throws {
        let harness = try Harness()
        harness.replay.inject(.status(503), matching: "bb.")
        harness.fetcher.want([harness.request(7)], settings: harness.settings)
        #expect(await harness.ended(1) == .init(failed: 1, reasons: [.httpStatus: 1]))
        #expect(harness.fetcher.takeFetched().isEmpty)
    }

    /// A transport that records every URL it is asked for and answers nothing.
    final class SpyTransport: ImageTransport {
        let asked = Lock([String]())
        func get(_ url: String, maxBytes: Int, timeout: Duration) async -> ImageResponse {
            asked.withLock { $0.append(url) }
            return .failed(.connection, "spy")
        }
    }

    @Test("fetches nothing from a host outside lookup.artwork_hosts (metadata service, another loopback port)")
    func refusesForeignHosts() async throws {
        let spy = SpyTransport()
        let fetcher = IconFetcher(state: StateOwnerTests.owner(), transport: spy, log: DaemonLog(environment: [:]))
        let settings = IconFetcher.Settings(
            rules: URLRules(artworkHosts: [try URLPrefix(parsing: "http://127.0.0.1:8080/")]), maxBytes: 1 << 20,
            timeout: .seconds(1))
        let sources = [
            "http://169.254.169.254/latest/meta-data/512x512bb.jpg", "http://127.0.0.1:22/x/512x512bb.jpg",
            "http://127.0.0.1:8080.evil.example/x/512x512bb.jpg",
        ]
        fetcher.want(
            sources.enumerated().map {
                IconFetcher.Request(key: IconKey(source: $1, size: 128), appId: $0, round: nil)
            },
            settings: settings)
        for _ in 0..<6000 where fetcher.counters.refused < sources.count {
            try? await Task.sleep(for: .milliseconds(5))
        }
        #expect(fetcher.counters == .init(refused: sources.count, reasons: [.hostNotAllowed: sources.count]))
        #expect(spy.asked.withLock { $0 }.isEmpty)
    }

    @Test("one request per (URL, size), however many documents ask, at most two at a time")
    func oneRequestPerKey() async throws {
        let harness = try Harness()
        let rounds = [Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 2)]
        let requests = rounds.flatMap { round in (10..<15).flatMap { [harness.request($0, round: round)] } }
        harness.fetcher.want(requests, settings: harness.settings)
        harness.fetcher.want(requests, settings: harness.settings)
        #expect(await harness.ended(5) == .init(ok: 5))
        harness.fetcher.want(requests, settings: harness.settings)
        #expect(harness.fetcher.pendingCount == 0, "an icon fetched and waiting was asked for again")
        #expect(harness.imageRequests.count == 5)
        #expect(Set(harness.imageRequests.map(\.path)).count == 5)
    }

    @Test("a refused icon is tried again only for a later fetch of its roster")
    func retriesAtNextRefresh() async throws {
        let harness = try Harness()
        harness.replay.inject(.status(500), matching: "bb.", count: 1)
        harness.fetcher.want([harness.request(20, round: Date(timeIntervalSince1970: 5))], settings: harness.settings)
        #expect(await harness.ended(1) == .init(failed: 1, reasons: [.httpStatus: 1]))
        harness.fetcher.want([harness.request(20, round: Date(timeIntervalSince1970: 5))], settings: harness.settings)
        #expect(harness.fetcher.pendingCount == 0)
        harness.fetcher.want([harness.request(20, round: Date(timeIntervalSince1970: 6))], settings: harness.settings)
        #expect(await harness.ended(2) == .init(ok: 1, failed: 1, reasons: [.httpStatus: 1]))
        #expect(harness.imageRequests.count == 2)
    }

    @Test("settled() returns once every icon asked for has ended, each with its outcome, and at once when idle")
    func settlesWithOutcomes() async throws {
        let harness = try Harness()
        await harness.fetcher.settled()
        harness.replay.inject(.body(try harness.file(Data("not an image".utf8))), matching: "/31/", count: 1)
        harness.replay.inject(.status(500), matching: "/32/", count: 1)
        harness.fetcher.want([30, 31, 32, 33, 34].map { harness.request($0) }, settings: harness.settings)
        #expect(harness.fetcher.outcome(of: harness.request(30).key) == nil)
        await harness.fetcher.settled()
        #expect(harness.fetcher.pendingCount == 0)
        #expect(harness.imageRequests.count == 5)
        let outcomes = [30, 31, 32, 33, 34].map { harness.fetcher.outcome(of: harness.request($0).key) }
        #expect(outcomes == [.fetched, .refused, .failed, .fetched, .fetched])
        #expect(harness.fetcher.outcome(of: harness.request(35).key) == nil)
    }

    @Test("settled() returns when its task is cancelled, with a download still hanging")
    func settledEndsOnCancellation() async throws {
        let harness = try Harness(timeout: .seconds(60))
        harness.replay.inject(.delay(.seconds(30)), matching: "bb.")
        harness.fetcher.want([harness.request(40)], settings: harness.settings)
        let fetcher = harness.fetcher
        let waiting = Task { await fetcher.settled() }
        // Bounded against hangs only: the wait is cancelled at once, long before the download could end.
        try await Task.sleep(for: .milliseconds(50))
        waiting.cancel()
        await waiting.value
        #expect(harness.fetcher.pendingCount == 1)
        #expect(harness.fetcher.outcome(of: harness.request(40).key) == nil)
    }
}
