import Foundation
import LookupReplay
import Testing

@Suite("Upstream failures", .serialized)
struct UpstreamFailureTests {
    static let transportFaults: [(String, ReplayFault)] = [
        ("403 with Retry-After", .status(403, retryAfter: "1")),
        ("403 without Retry-After", .status(403)),
        ("429", .status(429)),
        ("500", .status(500)),
        ("timeout", .delay(.seconds(3))),
        ("connection reset", .reset),
        ("connection closed", .close),
    ]

    @Test(
        "a transport failure keeps serving the cached roster and is counted in Status",
        arguments: transportFaults.map(\.0))
    func transportFailureKeepsCache(name: String) throws {
        let fault = Self.transportFaults.first { $0.0 == name }!.1
        let bed = try TestBed()
        // Only the timeout case may time out (its answer comes after 3 s); the others keep the bed's long timeout:
        // with 1 s, a loaded machine (CI under a sanitizer, both cores busy) once turned the 403 into a timeout.
        if name == "timeout" { bed.timeout = "1s" }
        try bed.start()
        try bed.waitUntilWarm()
        let before = try bed.get("de")
        bed.replay.clearRequests()
        bed.replay.inject(fault)
        let refresh = try bed.refresh("de")
        let failed = refresh["failed"] as? [[String: Any]] ?? []
        // What upstream saw after the fault was armed, to tell a missed fault from a lost answer if this ever fails.
        let seen = bed.replay.requests.map { "\($0.target) → \($0.answeredWith)" }
        #expect(failed.map { $0["storefront"] as? String } == ["de"], "\(refresh); upstream saw \(seen)")
        let after = try bed.get("de")
        #expect(after.error == nil, "\(after)")
        #expect(after.appIDs == before.appIDs)
        let status = try bed.status()
        let upstream = status["upstream"] as? [String: Any] ?? [:]
        #expect((upstream["failures"] as? Int ?? 0) >= 1)
        let isThrottle: Bool = if case .status(let code, _) = fault { code == 403 || code == 429 } else { false }
        #expect(((upstream["throttled"] as? Int ?? 0) >= 1) == isThrottle, "\(refresh) \(status); upstream saw \(seen)")
        let de = (status["storefronts"] as? [[String: Any]] ?? []).first { $0["code"] as? String == "de" }
        #expect(de?["lastError"] is String)
    }

    @Test("a throttled answer with Retry-After pauses every upstream request for that long")
    func throttlingHonoursRetryAfter() throws {
        let bed = try TestBed()
        bed.retry = "100ms"
        // A pause shorter than lookup.timeout, which Admin.Refresh waits out.
        bed.timeout = "3s"
        try bed.start()
        try bed.waitUntilWarm()
        bed.replay.clearRequests()
        bed.replay.inject(.status(429, retryAfter: "2"), count: 1)
        try bed.refresh("de")
        try bed.refresh("us")
        let requests = bed.requests()
        #expect(requests.count >= 2)
        let gap = requests[1].receivedAt.timeIntervalSince(requests[0].receivedAt)
        #expect(gap >= 1.9, "the request after a 429 with Retry-After: 2 came \(gap)s later")
    }

    @Test("an absurd Retry-After pauses upstream for at most refresh.interval, never for days")
    func retryAfterIsCapped() throws {
        let bed = try TestBed()
        bed.interval = "2s"
        bed.retry = "100ms"
        // The capped pause (2 s) is shorter than lookup.timeout, so Admin.Refresh waits it out.
        bed.timeout = "3s"
        try bed.start()
        try bed.waitUntilWarm()
        bed.replay.clearRequests()
        bed.replay.inject(.status(429, retryAfter: "864000"), count: 1)
        try bed.refresh("de")
        // Admin.Refresh waits for the rate limiter: without the cap this call would wait ten days.
        let refresh = try bed.refresh("us")
        #expect((refresh["refreshed"] as? [String]) == ["us"], "\(refresh)")
        #expect(bed.requests().count >= 2)
    }

    @Test("connection refused keeps serving the cached roster")
    func connectionRefusedKeepsCache() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let before = try bed.get("us")
        try bed.daemon!.stop()
        bed.replay.stop()  // nothing listens on the endpoint any more
        try bed.start()
        let refresh = try bed.refresh("us")
        #expect((refresh["failed"] as? [Any])?.count == 1, "\(refresh)")
        let after = try bed.get("us")
        #expect(after.error == nil)
        #expect(after.appIDs == before.appIDs)
    }

    static let diagnostics: [(String, ReplayFault, String)] = [
        ("malformed body", .body("malformed.html"), "io.showcase.Roster.MalformedResponse"),
        ("truncated body", .truncate, "io.showcase.Roster.MalformedResponse"),
        (
            "entity-less body", .body("artist-\(TestBed.artistId)-de.json"),
            "io.showcase.Roster.MissingEntityParameter"
        ),
    ]

    @Test(
        "a bad body reaches the caller and Status and is never masked by the cache",
        arguments: diagnostics.map(\.0))
    func diagnosticsAreNotMasked(name: String) throws {
        let (_, fault, errorName) = Self.diagnostics.first { $0.0 == name }!
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let good = try bed.get("de")
        bed.replay.inject(fault, matching: "entity=software")
        try bed.refresh("de")
        let answer = try bed.get("de")
        #expect(answer.error == errorName, "\(answer)")
        #expect(answer.string("storefront") == "de")
        let status = try bed.status()
        let de = (status["storefronts"] as? [[String: Any]] ?? []).first { $0["code"] as? String == "de" }
        #expect(de?["lastError"] is String, "\(status)")
        // An unusable body counts as an upstream failure, like a 5xx: Status never shows `failures: 0` beside it.
        #expect(((status["upstream"] as? [String: Any])?["failures"] as? Int ?? 0) >= 1, "\(status)")
        // The other storefront is untouched, and a good refresh brings the roster back.
        #expect(try bed.get("us").error == nil)
        bed.replay.clearFaults()
        try bed.refresh("de")
        #expect(try bed.get("de").appIDs == good.appIDs)
    }

    @Test("a host the lookup does not know is reported as HostAppNotFound with host and storefront")
    func unlistedHost() throws {
        let bed = try TestBed()
        bed.hosts = ["com.quietharbor.DoesNotExist"]
        try bed.start()
        try bed.refresh("de")
        let answer = try bed.get("de")
        #expect(answer.error == "io.showcase.Roster.HostAppNotFound", "\(answer)")
        #expect(answer.string("host") == "com.quietharbor.DoesNotExist")
        #expect(answer.string("storefront") == "de")
        let status = try bed.status()
        let de = (status["storefronts"] as? [[String: Any]] ?? []).first { $0["code"] as? String == "de" }
        #expect((de?["lastError"] as? String)?.contains("com.quietharbor.DoesNotExist") == true, "\(status)")
    }
}
