import Foundation
import ShowcaseCore
import Testing
import Varlink

@testable import ShowcaseDaemon

@Suite("Reply cache keys: hashed once, still compared member by member")
struct ReplyCacheKeyTests {
    private let full = ReplyCache.Key(
        storefront: TestBed.storefront("us"), host: "com.example.App", platform: .ios, device: .iphone,
        osVersion: OSVersion("17.4")!,
        locale: "en")

    @Test("keys spelled the same are equal and hash the same")
    func sameSpelling() {
        let again = ReplyCache.Key(
            storefront: TestBed.storefront("us"), host: "com.example.App", platform: .ios, device: .iphone,
            osVersion: OSVersion("17.4")!,
            locale: "en")
        #expect(full == again)
        #expect(full.hashValue == again.hashValue)
        #expect(
            ReplyCache.Key(storefront: TestBed.storefront("de"))
                == ReplyCache.Key(storefront: TestBed.storefront("de"), host: nil))
    }

    @Test("a key differing in any one member is another key")
    func everyMemberCounts() {
        let others = [
            ReplyCache.Key(
                storefront: TestBed.storefront("de"), host: "com.example.App", platform: .ios, device: .iphone,
                osVersion: OSVersion("17.4")!,
                locale: "en"),
            ReplyCache.Key(
                storefront: TestBed.storefront("us"), host: nil, platform: .ios, device: .iphone,
                osVersion: OSVersion("17.4")!,
                locale: "en"),
            ReplyCache.Key(
                storefront: TestBed.storefront("us"), host: "com.example.App", platform: .macos, device: .iphone,
                osVersion: OSVersion("17.4")!,
                locale: "en"),
            ReplyCache.Key(
                storefront: TestBed.storefront("us"), host: "com.example.App", platform: .ios, device: .ipad,
                osVersion: OSVersion("17.4")!,
                locale: "en"),
            ReplyCache.Key(
                storefront: TestBed.storefront("us"), host: "com.example.App", platform: .ios, device: .iphone,
                osVersion: OSVersion("16.0")!,
                locale: "en"),
            ReplyCache.Key(
                storefront: TestBed.storefront("us"), host: "com.example.App", platform: .ios, device: .iphone,
                osVersion: OSVersion("17.4")!,
                locale: nil),
        ]
        for other in others { #expect(other != full) }
        #expect(Set(others + [full]).count == others.count + 1)
    }

    @Test("the cache answers a key only with the reply stored for that key")
    func lookupIsPerKey() {
        let cache = ReplyCache(clock: ManualClock())
        let stamp = StorefrontStamp()
        let other = ReplyCache.Key(storefront: TestBed.storefront("us"), locale: "fr")
        let reply = EncodedReply(parameters: .object(["which": .string("full")]))
        for _ in 0..<2 {  // a reply is kept the second time its query misses
            cache.store(
                reply, for: full, version: AnswerVersion(version: 1, storefront: stamp, storefrontValue: stamp.value))
        }
        #expect(cache.lookup(full, version: 1)?.bytes == reply.bytes)
        #expect(cache.lookup(other, version: 1) == nil)
        #expect(cache.lookup(ReplyCache.Key(storefront: TestBed.storefront("us")), version: 1) == nil)
    }
}
