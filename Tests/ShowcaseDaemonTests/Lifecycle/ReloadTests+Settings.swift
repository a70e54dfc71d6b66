import Foundation
import LookupReplay
import Testing

extension ReloadTests {
    @Test("reloading lookup.rate_limit changes the spacing of the next upstream requests")
    func reloadedRateLimitApplies() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        bed.rateLimit = "20/min"  // from 600/min: one request every 3 s instead of every 0.1 s
        #expect(try bed.reload().int("generation") == 2)
        bed.replay.clearRequests()
        let refresh = try bed.client(receiveTimeout: 60).call("io.showcase.Admin.Refresh")
        #expect(Set(refresh["refreshed"] as? [String] ?? []) == ["us", "de"], "\(refresh)")
        let requests = bed.requests().sorted { $0.receivedAt < $1.receivedAt }
        #expect(requests.count == 2, "\(requests.map(\.target))")
        // A lower bound with 1 s to spare for uneven delivery; the old budget would space them 0.1 s apart.
        if requests.count == 2 {
            let gap = requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt)
            #expect(gap >= 2, "two requests \(gap)s apart after reloading rate_limit to 20/min")
        }
    }

    @Test("reloading lookup.endpoint sends the next fetch to the new endpoint only")
    func reloadedEndpointApplies() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let other = try LookupReplayServer(fixtures: TestBed.fixtures)
        defer { other.stop() }
        bed.endpoint = other.endpoint
        #expect(try bed.reload().int("generation") == 2)
        bed.replay.clearRequests()
        let refresh = try bed.refresh("de")
        #expect(refresh["refreshed"] as? [String] == ["de"], "\(refresh)")
        #expect(other.requests.contains { $0.target.contains("country=de") }, "\(other.requests.map(\.target))")
        #expect(bed.requests().isEmpty, "the old endpoint still got \(bed.requests().map(\.target))")
    }

    @Test("reloading hosts adds a host that queries may name at once, and removes one that is gone")
    func reloadedHostsApply() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let before = try bed.get("de", ["host": TestBed.tideLog])
        #expect(before.error == "io.showcase.Roster.UnknownHost", "\(before)")

        bed.hosts = [TestBed.knotbook, TestBed.tideLog]
        #expect(try bed.reload().int("generation") == 2)
        let added = try bed.get("de", ["host": TestBed.tideLog, "waitMs": 20_000])
        #expect(added.error == nil, "\(added)")
        #expect(added.string("host") == TestBed.tideLog)
        #expect(added.string("state") == "fresh", "\(added)")
        let bundleIDs = added.apps.compactMap { $0["bundleId"] as? String }
        #expect(!bundleIDs.contains(TestBed.tideLog), "a host never lists itself: \(bundleIDs)")
        #expect(bundleIDs.contains(TestBed.knotbook), "\(bundleIDs)")

        bed.hosts = [TestBed.tideLog]
        #expect(try bed.reload().int("generation") == 3)
        let removed = try bed.get("de", ["host": TestBed.knotbook])
        #expect(removed.error == "io.showcase.Roster.UnknownHost", "\(removed)")
        // The first configured host is now the default.
        #expect(try bed.get("de").string("host") == TestBed.tideLog)
    }
}
