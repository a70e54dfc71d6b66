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
        try bed.start()
        try bed.waitUntilWarm()
        bed.replay.clearRequests()
        bed.replay.inject(.status(status), count: 1)
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
}
