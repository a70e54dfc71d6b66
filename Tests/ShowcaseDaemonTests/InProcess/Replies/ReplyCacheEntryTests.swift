import Foundation
import Testing
import Varlink

@testable import ShowcaseDaemon

@Suite("Reply cache: a call's kept entry answers only while the cache still holds it and it is current")
struct ReplyCacheEntryTests {
    private let key = ReplyCache.Key(storefront: TestBed.storefront("us"), locale: "en")

    private func parameters(_ members: [String: JSONValue]) throws -> GetParameters {
        try GetParameters(VarlinkCall(method: "io.showcase.Roster.Get", parameters: members))
    }

    private func reply(_ text: String) -> EncodedReply {
        EncodedReply(parameters: .object(["which": .string(text)]))
    }

    /// Stores `reply` for `key` twice (a reply is kept the second time its query misses).
    private func keep(
        _ reply: EncodedReply, for key: ReplyCache.Key, in cache: ReplyCache, stamp: Int = 1,
        storefront: StorefrontStamp = StorefrontStamp(), expires: Date? = nil
    ) {
        for _ in 0..<2 {
            cache.store(
                reply, for: key,
                version: AnswerVersion(
                    version: stamp, storefront: storefront, storefrontValue: storefront.value, expires: expires))
        }
    }

    @Test("a hit keeps the entry, and the next lookup answers from it")
    func keepsTheEntry() throws {
        let cache = ReplyCache(clock: ManualClock())
        let query = try parameters(["storefront": .string("us"), "locale": .string("en")])
        #expect(cache.lookup(query, version: 1) == nil)
        #expect(query.cacheEntry == nil)
        let first = reply("first")
        keep(first, for: key, in: cache)
        #expect(cache.lookup(query, version: 1)?.bytes == first.bytes)
        #expect(query.cacheEntry != nil)
        #expect(cache.lookup(query, version: 1)?.bytes == first.bytes)
        let other = try parameters(["storefront": .string("us"), "locale": .string("fr")])
        #expect(cache.lookup(other, version: 1) == nil)
        #expect(other.cacheEntry == nil)
    }

    @Test("a replaced entry is not used: the lookup finds the new one")
    func replaced() throws {
        let cache = ReplyCache(clock: ManualClock())
        let query = try parameters(["storefront": .string("us"), "locale": .string("en")])
        keep(reply("old"), for: key, in: cache)
        #expect(cache.lookup(query, version: 1)?.bytes == reply("old").bytes)
        let kept = try #require(query.cacheEntry)
        keep(reply("new"), for: key, in: cache, stamp: 2)
        #expect(kept.reply == nil)
        #expect(cache.lookup(query, version: 1) == nil)
        #expect(cache.lookup(query, version: 2)?.bytes == reply("new").bytes)
        #expect(query.cacheEntry !== kept)
    }

    @Test("an evicted entry is not used, and gives up its reply")
    func evicted() throws {
        let cache = ReplyCache(clock: ManualClock(), capacity: 1)
        let query = try parameters(["storefront": .string("us"), "locale": .string("en")])
        keep(reply("us"), for: key, in: cache)
        #expect(cache.lookup(query, version: 1)?.bytes == reply("us").bytes)
        let kept = try #require(query.cacheEntry)
        // Capacity 1: "us" makes room.
        keep(reply("de"), for: ReplyCache.Key(storefront: TestBed.storefront("de")), in: cache)
        #expect(kept.reply == nil)
        #expect(cache.lookup(query, version: 1) == nil)
        #expect(cache.lookup(key, version: 1) == nil)
    }

    @Test("a kept entry is not current after the state's version changes (a reload, an identity), or once it expires")
    func stampsStillChecked() throws {
        let clock = ManualClock()
        let cache = ReplyCache(clock: clock)
        let query = try parameters(["storefront": .string("us"), "locale": .string("en")])
        keep(reply("us"), for: key, in: cache, expires: clock.now.addingTimeInterval(60))
        #expect(cache.lookup(query, version: 1) != nil)
        #expect(query.cacheEntry != nil)
        #expect(cache.lookup(query, version: 2) == nil)
        #expect(cache.lookup(query, version: 1) != nil)
        clock.advance(by: .seconds(61))
        #expect(cache.lookup(query, version: 1) == nil)
    }

    @Test("a kept entry is not current after its storefront's stamp moves")
    func storefrontStampStillChecked() throws {
        let cache = ReplyCache(clock: ManualClock())
        let storefront = StorefrontStamp()
        let query = try parameters(["storefront": .string("us"), "locale": .string("en")])
        keep(reply("us"), for: key, in: cache, storefront: storefront)
        #expect(cache.lookup(query, version: 1) != nil)
        #expect(query.cacheEntry != nil)
        storefront.bump()
        #expect(cache.lookup(query, version: 1) == nil)
    }

    @Test("an entry kept from one cache is not used by another")
    func otherCache() throws {
        let one = ReplyCache(clock: ManualClock())
        let other = ReplyCache(clock: ManualClock())
        let query = try parameters(["storefront": .string("us"), "locale": .string("en")])
        keep(reply("one"), for: key, in: one)
        #expect(one.lookup(query, version: 1)?.bytes == reply("one").bytes)
        #expect(other.lookup(query, version: 1) == nil)
        keep(reply("other"), for: key, in: other)
        #expect(other.lookup(query, version: 1)?.bytes == reply("other").bytes)
    }
}
