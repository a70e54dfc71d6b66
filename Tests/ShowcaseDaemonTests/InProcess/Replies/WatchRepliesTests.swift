import Foundation
import ShowcaseConfig
import ShowcaseCore
import Testing
import Varlink

@testable import ShowcaseDaemon

@Suite("Watch replies: resolved once and encoded once for every subscriber")
struct WatchRepliesTests {
    let us = TestBed.storefront("us")

    /// A warm runtime (us fetched and fresh) and the shared replies over it.
    private func warm() async throws -> (DaemonRuntimeTests.Harness, WatchReplies) {
        let harness = await DaemonRuntimeTests.Harness(
            InProcessFixtures.configuration(interval: .seconds(3600), cache: InProcessFixtures.cacheDirectory()))
        try #require(await harness.advance { harness.view("us").state == .fresh })
        return (harness, WatchReplies(reader: harness.runtime.reader))
    }

    private func address(_ bytes: [UInt8]) -> UnsafeRawPointer? {
        bytes.withUnsafeBytes { $0.baseAddress }
    }

    @Test("every stream of a host and storefront gets the one resolution, and the one encoding of a revision")
    func oneResolutionOneEncoding() async throws {
        let (harness, replies) = try await warm()
        let first = try #require(replies.current(host: TestBed.tideLog, storefront: us))
        let second = try #require(replies.current(host: TestBed.tideLog, storefront: us))
        #expect(first === second)
        #expect(first.view.state == .fresh)
        let apps = try JSONValue(parsing: first.apps.bytes).arrayValue ?? []
        #expect(apps.map { $0["id"] } == harness.view("us").apps.map { .int(Int64($0.app.id)) })
        #expect(!apps.isEmpty)
        let reply = try first.reply(revision: 7)
        #expect(address(try second.reply(revision: 7).bytes) == address(reply.bytes))
        #expect(String(decoding: reply.bytes, as: UTF8.self).contains(#""revision":7"#))
        #expect(reply.continues)
        await harness.stop()
    }

    @Test("a refresh with the same apps keeps their storage and the encoded reply; turning stale changes the reply")
    func sameAppsKeepTheirStorage() async throws {
        let (harness, replies) = try await warm()
        let before = try #require(replies.current(host: TestBed.tideLog, storefront: us))
        let encoded = try before.reply(revision: 1)
        // A second on the manual clock: the rate limiter's next slot is free, so the refresh needs no clock movement.
        harness.clock.advance(by: .seconds(1))
        let report = await harness.runtime.refresh.refresh(us)
        #expect(report.refreshed == [us])
        let after = try #require(replies.current(host: TestBed.tideLog, storefront: us))
        #expect(after !== before)  // the store recorded a refresh: resolved again
        #expect(address(after.apps.bytes) == address(before.apps.bytes))
        #expect(address(try after.reply(revision: 1).bytes) == address(encoded.bytes))

        // Past the interval with upstream gone, the same apps are served stale: a different reply.
        harness.lookup.fail(with: .timeout(.seconds(10)))
        harness.clock.advance(by: .seconds(3600))
        #expect(await harness.advance { replies.current(host: TestBed.tideLog, storefront: us)?.view.state == .stale })
        let stale = try #require(replies.current(host: TestBed.tideLog, storefront: us))
        let staleReply = String(decoding: try stale.reply(revision: 2).bytes, as: UTF8.self)
        #expect(staleReply.contains(#""state":"stale""#))
        await harness.stop()
    }

    @Test("apps encoded apart compare equal when their bytes are; any difference in any app tells them apart")
    func appsCompareByBytes() throws {
        let view = AppProjectionTests.fullView()
        let apps = WatchApps(view.apps)
        let again = WatchApps(view.apps)
        #expect(address(apps.bytes) != address(again.bytes))
        #expect(apps == again)
        #expect(apps == apps)
        #expect(apps != WatchApps(Array(view.apps.dropLast())))
        var changed = view.apps
        changed[changed.count - 1].tagline = nil
        #expect(apps != WatchApps(changed))
        changed = view.apps
        changed[changed.count - 1].app.name += "!"  // same length as another change would need: bytes, not counts
        var renamed = view.apps
        renamed[renamed.count - 1].app.name += "?"
        #expect(WatchApps(changed) != WatchApps(renamed))
        #expect(WatchApps([]) == WatchApps([]))
    }

    @Test("a host the reloaded configuration no longer names resolves to nothing")
    func removedHost() async throws {
        let (harness, replies) = try await warm()
        #expect(replies.current(host: TestBed.tideLog, storefront: us) != nil)
        var other = harness.runtime.state.config.configuration
        other.hosts = [HostConfiguration(bundleID: "com.example.Other", appID: nil)]
        harness.source.withLock { $0 = other }
        guard case .success = await harness.runtime.reload.reload(trigger: "test") else {
            Issue.record("the reload was rejected")
            return
        }
        #expect(replies.current(host: TestBed.tideLog, storefront: us) == nil)
        await harness.stop()
    }
}
