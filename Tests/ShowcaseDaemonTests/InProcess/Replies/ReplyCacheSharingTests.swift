import Foundation
import Testing
import Varlink

@testable import ShowcaseDaemon

@Suite("Reply cache: queries with the same reply share one copy of its bytes")
struct ReplyCacheSharingTests {
    private let english = ReplyCache.Key(storefront: TestBed.storefront("us"), locale: "en")
    private let french = ReplyCache.Key(storefront: TestBed.storefront("us"), locale: "fr")
    private let german = ReplyCache.Key(storefront: TestBed.storefront("de"))

    private func reply(_ text: String) -> EncodedReply {
        EncodedReply(parameters: .object(["apps": .string(String(repeating: text, count: 100))]))
    }

    /// Stores `reply` for `key` twice (a reply is kept the second time its query misses), version 1.
    private func keep(_ reply: EncodedReply, for key: ReplyCache.Key, in cache: ReplyCache) {
        let storefront = StorefrontStamp()
        for _ in 0..<2 {
            cache.store(
                reply, for: key,
                version: AnswerVersion(version: 1, storefront: storefront, storefrontValue: storefront.value))
        }
    }

    private func address(_ reply: EncodedReply?) -> UnsafeRawPointer? {
        reply?.bytes.withUnsafeBytes { $0.baseAddress }
    }

    @Test("two queries answered with equal bytes hold one copy, counted once")
    func sharesEqualBytes() throws {
        let cache = ReplyCache(clock: ManualClock())
        let size = reply("a").bytes.count
        keep(reply("a"), for: english, in: cache)
        keep(reply("a"), for: french, in: cache)  // equal bytes, built separately
        let first = try #require(cache.lookup(english, version: 1))
        let second = try #require(cache.lookup(french, version: 1))
        #expect(first.bytes == reply("a").bytes)
        #expect(address(first) == address(second))
        #expect(cache.bytes == size)
        keep(reply("b"), for: german, in: cache)
        #expect(cache.bytes == 2 * size)
        #expect(address(cache.lookup(german, version: 1)) != address(first))
    }

    @Test("a budget for one reply keeps every query that shares it, and evicts for different bytes")
    func budgetCountsSharedOnce() {
        let size = reply("a").bytes.count
        let cache = ReplyCache(clock: ManualClock(), byteBudget: size + size / 2)
        keep(reply("a"), for: english, in: cache)
        keep(reply("a"), for: french, in: cache)
        #expect(cache.lookup(english, version: 1) != nil)
        #expect(cache.lookup(french, version: 1) != nil)
        keep(reply("b"), for: german, in: cache)  // does not fit beside "a": both "a" entries make room
        #expect(cache.lookup(german, version: 1)?.bytes == reply("b").bytes)
        #expect(cache.lookup(english, version: 1) == nil)
        #expect(cache.lookup(french, version: 1) == nil)
        #expect(cache.bytes == size)
    }

    @Test("shared bytes stay while any entry holds them and are given back with the last")
    func lastHolderGivesBack() throws {
        let cache = ReplyCache(clock: ManualClock())
        let size = reply("a").bytes.count
        keep(reply("a"), for: english, in: cache)
        keep(reply("a"), for: french, in: cache)
        keep(reply("c"), for: english, in: cache)  // english now has other bytes; french still holds "a"
        #expect(cache.lookup(french, version: 1)?.bytes == reply("a").bytes)
        #expect(cache.lookup(english, version: 1)?.bytes == reply("c").bytes)
        #expect(cache.bytes == 2 * size)
        keep(reply("c"), for: french, in: cache)  // the last holder of "a" lets go; "c" is shared
        #expect(cache.bytes == size)
        let english = try #require(cache.lookup(english, version: 1))
        #expect(address(english) == address(cache.lookup(french, version: 1)))
    }
}
