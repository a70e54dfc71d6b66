import Foundation
@preconcurrency import Glibc
import LookupReplay
import Testing

/// Calls already in progress when the daemon reloads or is told to stop.
@Suite("In-flight calls", .serialized)
struct InFlightTests {
    @Test("a reload does not disturb a call in flight or a pipelined burst on another connection")
    func reloadLeavesCallsInFlightAlone() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let ids = try bed.get("de").appIDs
        bed.replay.inject(.delay(.milliseconds(800)), matching: "country=jp")
        let waiting = try bed.client()
        try waiting.send("io.showcase.Roster.Get", ["storefront": "jp", "waitMs": 10_000])
        let burst = try bed.client()
        for _ in 0..<50 { try burst.send("io.showcase.Roster.Get", ["storefront": "de"]) }

        try bed.writeOverlay("order: [\(ids[2])]\n")
        #expect(try bed.client().call("io.showcase.Admin.Reload").int("generation") == 2)

        for _ in 0..<50 {
            let reply = try burst.next()
            #expect(reply.error == nil, "\(reply)")
            #expect(Set(reply.appIDs) == Set(ids))
        }
        let answer = try waiting.next()
        #expect(answer.error == nil, "\(answer)")
        #expect(answer.string("state") == "fresh")
        #expect(!answer.appIDs.isEmpty)
        #expect(try bed.get("de").appIDs.first == ids[2])
    }

    @Test("SIGTERM still answers a Get waiting on a warming roster and an Admin.Refresh in flight, then exits 0")
    func sigtermFinishesCallsInFlight() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        bed.replay.inject(.delay(.milliseconds(800)))
        let waiting = try bed.client()
        try waiting.send("io.showcase.Roster.Get", ["storefront": "jp", "waitMs": 10_000])
        let refreshing = try bed.client()
        try refreshing.send("io.showcase.Admin.Refresh", ["storefront": "us"])
        try waitFor { !bed.requests(matching: "country=jp").isEmpty }
        bed.daemon!.send(SIGTERM)

        let answer = try waiting.next()
        #expect(answer.error == nil, "\(answer)")
        #expect(["fresh", "warming"].contains(answer.string("state")), "\(answer)")
        let refresh = try refreshing.next()
        #expect(refresh.error == nil, "\(refresh)")
        #expect(refresh["refreshed"] is [Any] && refresh["failed"] is [Any], "\(refresh)")
        #expect(try bed.daemon!.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: bed.socketPath))
    }

    @Test("SIGTERM gives an Admin.Refresh waiting on a slow upstream lookup.timeout + 1 s, so it is answered, not cut")
    func sigtermWaitsForASlowRefresh() throws {
        let bed = try TestBed()
        bed.timeout = "4s"
        try bed.start()
        try bed.waitUntilWarm()
        // The upstream answers after 3 s: within lookup.timeout, but later than a fixed 2 s grace would allow.
        bed.replay.inject(.delay(.seconds(3)), matching: "country=us")
        bed.replay.clearRequests()
        let refreshing = try bed.client(receiveTimeout: 30)
        try refreshing.send("io.showcase.Admin.Refresh", ["storefront": "us"])
        try waitFor { !bed.requests(matching: "country=us").isEmpty }
        bed.daemon!.send(SIGTERM)

        let refresh = try refreshing.next()
        #expect(refresh.error == nil, "\(refresh)")
        #expect(refresh["refreshed"] as? [String] == ["us"], "\(refresh)")
        #expect(try bed.daemon!.waitForExit(timeout: .seconds(30)) == 0)
    }
}
