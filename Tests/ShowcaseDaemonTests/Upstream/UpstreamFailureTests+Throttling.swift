import Foundation
import LookupReplay
import Testing

extension UpstreamFailureTests {
    @Test(
        "a 403 or 429 without Retry-After pauses every storefront's requests for refresh.retry, not just its own",
        arguments: [403, 429])
    func throttlingWithoutRetryAfterPausesEveryone(status: Int) throws {
        let bed = try TestBed()
        bed.retry = "2s"
        // A pause shorter than lookup.timeout: Admin.Refresh waits it out (a longer one is answered at once).
        bed.timeout = "3s"
        try bed.start()
        try bed.waitUntilWarm()
        bed.replay.clearRequests()
        // Only a de request gets the fault: a request the scheduler sends meanwhile must not take it instead.
        bed.replay.inject(.status(status), matching: "country=de", count: 1)
        let throttled = try bed.refresh("de")
        #expect((throttled["failed"] as? [[String: Any]] ?? []).count == 1, "\(throttled)")
        // Another storefront: its request waits for the pause too (throttling is per IP, not per storefront).
        let other = try bed.refresh("us")
        #expect(other["refreshed"] as? [String] == ["us"], "\(other)")
        let requests = bed.requests()
        let first = try #require(requests.first)
        #expect(first.target.contains("country=de"), "\(requests.map(\.target))")
        let us = try #require(requests.first { $0.target.contains("country=us") })
        // A lower bound only: the pause starts after the 403/429 reached the daemon, after it arrived here.
        let gap = us.receivedAt.timeIntervalSince(first.receivedAt)
        #expect(gap >= 1.9, "the us request came \(gap)s after a \(status) without Retry-After (retry 2s)")
        let upstream = try bed.status()["upstream"] as? [String: Any] ?? [:]
        #expect((upstream["throttled"] as? Int ?? 0) >= 1)
    }

    @Test("a 429 with an absurd Retry-After: Admin.Refresh answers at once with the pause, Status shows its end")
    func longThrottlePauseIsAnsweredNotWaited() throws {
        let bed = try TestBed()
        // Far above what a loopback request takes on a loaded machine: with the default 1 s, a de request that timed
        // out under load failed the refresh before the 429 arrived, no pause started, and us was refreshed.
        bed.timeout = "5s"
        try bed.start()
        try bed.waitUntilWarm()
        // Only a de request gets the fault: a request the scheduler sends meanwhile must not take it instead.
        bed.replay.inject(.status(429, retryAfter: "86400"), matching: "country=de", count: 1)
        let throttled = try bed.refresh("de")
        #expect((throttled["failed"] as? [[String: Any]] ?? []).count == 1, "\(throttled)")
        let counters = try bed.status()["upstream"] as? [String: Any] ?? [:]
        try #require(counters["throttled"] as? Int == 1, "the de refresh failed without the 429: \(throttled)")

        // The pause (capped at refresh.interval, 1 h here) is far longer than lookup.timeout (5 s): the next
        // refresh must not wait for it. The client's receive timeout (15 s) bounds a hang.
        let next = try bed.refresh("us")
        let failed = next["failed"] as? [[String: Any]] ?? []
        #expect(failed.map { $0["storefront"] as? String } == ["us"], "\(next)")
        #expect((failed.first?["error"] as? String)?.hasPrefix("throttled until ") == true, "\(next)")

        // Status shows the real next attempt: the end of the pause, not now.
        let entry = try #require(try bed.statusEntry("us"))
        let text = try #require(entry["nextRefreshAt"] as? String, "\(entry)")
        let nextAttempt = try #require(ISO8601DateFormatter().date(from: text), "\(text)")
        #expect(nextAttempt.timeIntervalSinceNow > 30 * 60, "nextRefreshAt \(text) is not the pause's end")
    }

    @Test("a 429 with an absurd Retry-After in the middle of a refresh of every storefront: the rest answer at once")
    func longThrottlePauseDuringRefreshIsAnswered() throws {
        let bed = try TestBed()
        bed.storefronts = ["us", "de", "jp"]
        // One request a second: the 429 is in before the next request may leave, even on a loaded machine.
        bed.rateLimit = "60/min"
        // A request timing out under load would fail its storefront before the 429 could pause the others.
        bed.timeout = "5s"
        try bed.start()
        try bed.waitUntilWarm()
        // No pause is in force when Admin.Refresh starts; its first request starts one far longer than
        // lookup.timeout (5 s). The storefronts still waiting must not wait for it (the client gives up after 15 s).
        bed.replay.inject(.status(429, retryAfter: "86400"), count: 1)
        let started = ContinuousClock.now
        let reply = try bed.refresh()
        let failed = reply["failed"] as? [[String: Any]] ?? []
        let storefronts = Set(failed.compactMap { $0["storefront"] as? String })
        #expect(storefronts == ["de", "jp", "us"], "\(reply)")
        let paused = failed.filter { ($0["error"] as? String)?.hasPrefix("throttled until ") == true }
        #expect(paused.count == 2, "the two storefronts behind the 429 name the pause: \(reply)")
        #expect(ContinuousClock.now - started < .seconds(10), "Admin.Refresh waited for the pause")
    }
}
