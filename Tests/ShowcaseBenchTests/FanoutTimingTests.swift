import Testing

@testable import showcase_bench

@Suite("Watch fan-out timing")
struct FanoutTimingTests {
    @Test("delays are counted from the cache write, nearest rank, with the subscribers that never got it apart")
    func delaysFromTheCacheWrite() {
        let written: Int64 = 1_700_000_000_000_000_000
        // 100 subscribers received it 1…100 ms after the write; two never did.
        let received: [Int64?] = (1...100).reversed().map { written + Int64($0) * 1_000_000 } + [nil, nil]
        let timing = FanoutTiming(writtenAt: written, receivedAt: received)
        #expect(timing.received == 100)
        #expect(timing.missing == 2)
        #expect(timing.p50 == 50_000_000)
        #expect(timing.p99 == 99_000_000)
        #expect(timing.max == 100_000_000)
        #expect(!timing.meets(bound: 100_000_000))  // two are missing
    }

    @Test("every subscriber in time meets the bound; one late p99 does not")
    func meetsTheBound() {
        let written: Int64 = 5_000_000_000
        let inTime = FanoutTiming(writtenAt: written, receivedAt: (0..<1000).map { written + Int64($0) * 10_000 })
        #expect(inTime.missing == 0)
        #expect(inTime.meets(bound: 100_000_000))
        let late = FanoutTiming(
            writtenAt: written, receivedAt: (0..<1000).map { written + ($0 < 980 ? 1_000_000 : 150_000_000) })
        #expect(late.p99 == 150_000_000)
        #expect(!late.meets(bound: 100_000_000))
    }

    @Test("a reply read before the file's mtime is a negative delay, not a wrapped huge one")
    func negativeDelay() {
        let timing = FanoutTiming(writtenAt: 2_000_000, receivedAt: [1_000_000, 3_000_000])
        #expect(timing.p50 == -1_000_000)
        #expect(timing.max == 1_000_000)
    }

    @Test("no subscriber at all is not a pass")
    func emptyIsNotAPass() {
        #expect(!FanoutTiming(writtenAt: 0, receivedAt: []).meets(bound: 100_000_000))
    }

    @Test("the first delay is the earliest subscriber's, apart from the spread")
    func firstDelay() {
        let written: Int64 = 9_000_000_000
        let timing = FanoutTiming(
            writtenAt: written, receivedAt: [written + 30_000_000, nil, written + 2_000_000, written + 80_000_000])
        #expect(timing.first == 2_000_000)
        #expect(timing.max == 80_000_000)
    }

    @Test("reads the revision of a Watch reply, and none from an error reply")
    func revisionOfAReply() {
        let reply = Array(#"{"continues":true,"parameters":{"storefront":"us","revision":42,"state":"fresh"}}"#.utf8)
        #expect(reply.withUnsafeBufferPointer { WatchReplyReader.revision(in: $0) } == 42)
        let error = Array(#"{"error":"io.showcase.Unavailable","parameters":{"storefront":"us"}}"#.utf8)
        #expect(error.withUnsafeBufferPointer { WatchReplyReader.revision(in: $0) } == nil)
    }
}
