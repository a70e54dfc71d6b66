import Foundation
import ShowcaseAPI
import ShowcaseConfig
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

@Suite("Health and metrics in process: the one state mapping, ages by the injected clock")
struct HealthReportTests {
    static func entry(_ code: String, _ state: ServedState) -> HealthReport.Storefront {
        HealthReport.Storefront(
            storefront: TestBed.storefront(code), state: state, ageSeconds: nil, problem: nil, apps: 0)
    }

    @Test(
        "the overall state: degraded beats warming beats ok",
        arguments: [
            ([ServedState](), HealthState.ok), ([.fresh, .fresh], .ok), ([.fresh, .warming], .warming),
            ([.warming, .stale], .degraded), ([.fresh, .unavailable], .degraded), ([.warming, .failed], .degraded),
        ])
    func overall(states: [ServedState], expected: HealthState) {
        let codes = ["us", "de", "jp"]
        let report = HealthReport(
            refreshInterval: .seconds(60), storefronts: states.enumerated().map { Self.entry(codes[$0], $1) })
        #expect(report.state == expected)
    }

    @Test("ages follow the injected clock; Health, the metrics and Status agree on each storefront's state")
    func agesAndStates() async throws {
        let harness = await DaemonRuntimeTests.Harness(
            InProcessFixtures.configuration(interval: .seconds(3600), cache: InProcessFixtures.cacheDirectory()))
        let warming = harness.runtime.status.health()
        #expect(warming.state == .warming)
        #expect(warming.storefronts.allSatisfy { $0.ageSeconds == nil && $0.apps == 0 })
        #expect(await harness.advance { harness.runtime.status.health().state == .ok })
        harness.clock.advance(by: .seconds(125))
        let health = harness.runtime.status.health()
        let entry = try #require(health.storefronts.first)
        #expect((125...130).contains(entry.ageSeconds ?? -1), "\(entry)")
        #expect(entry.apps > 0)

        let metrics = harness.runtime.status.metrics(varlinkCalls: ["io.showcase.Roster.Get": 2])
        let status = harness.runtime.status.status()
        #expect(metrics.storefronts.map(\.state) == health.storefronts.map(\.state.wire))
        #expect(status.storefronts.map(\.state) == health.storefronts.map(\.state))
        #expect(metrics.storefronts.map(\.ageSeconds) == health.storefronts.map(\.ageSeconds))
        #expect(metrics.varlinkCalls == ["io.showcase.Roster.Get": 2])
        #expect(metrics.configGeneration == 1)
        let wire = try RosterHealthReply(decoding: ReplyEncoding.health(health))
        #expect(wire.state == .ok)
        #expect(wire.refreshIntervalSeconds == 3600)
        #expect(wire.storefronts.map(\.code) == health.storefronts.map(\.storefront.code))
        await harness.stop()
    }
}
