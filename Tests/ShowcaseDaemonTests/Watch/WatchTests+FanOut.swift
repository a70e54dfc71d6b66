import Foundation
@preconcurrency import Glibc
import Testing

extension WatchTests {
    @Test("many watchers of one storefront or of all get each new revision once; an identical refresh sends none")
    func manyWatchersEachGetEachRevisionOnce() throws {
        let bed = try TestBed()
        bed.storefronts = ["de", "us"]
        try bed.start()
        try bed.waitUntilWarm()
        let deWatchers = try (0..<40).map { _ in try bed.client() }
        let everyWatchers = try (0..<5).map { _ in try bed.client() }
        var revisions: [Int] = []
        var ids: [Int] = []
        for watcher in deWatchers {
            let first = try watcher.call("io.showcase.Roster.Watch", ["storefront": "de"], more: true)
            #expect(first.continues)
            revisions.append(try #require(first.int("revision")))
            ids = first.appIDs
        }
        #expect(ids.count >= 3)
        for watcher in everyWatchers {
            // Without a storefront: the current state of each warm storefront, in order.
            try watcher.send("io.showcase.Roster.Watch", [:], more: true)
            #expect(try watcher.next().string("storefront") == "de")
            #expect(try watcher.next().string("storefront") == "us")
        }
        let revision = try #require(revisions.first)
        #expect(revisions.allSatisfy { $0 == revision })

        try bed.overrideRoster("de", without: [ids[0]])
        try bed.refresh("de")
        for watcher in deWatchers + everyWatchers {
            let reply = try watcher.next()
            #expect(reply.continues)
            #expect(reply.string("storefront") == "de")
            #expect(reply.int("revision") == revision + 1)
            #expect(reply.appIDs == Array(ids.dropFirst()))
        }

        try bed.refresh("de")  // identical content: nothing may follow for it
        try bed.refresh("us")  // nor for a refresh of another storefront that changes nothing

        try bed.overrideRoster("de", without: [ids[0], ids[1]])
        try bed.refresh("de")
        for watcher in deWatchers + everyWatchers {
            let reply = try watcher.next()
            #expect(reply.string("storefront") == "de")
            #expect(reply.int("revision") == revision + 2, "a reply came for an identical refresh: \(reply)")
            #expect(reply.appIDs == Array(ids.dropFirst(2)))
        }
    }

    @Test("a watcher that hangs up is forgotten: the others still get the next revision")
    func hangUpLeavesTheOthers() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        try bed.start()
        try bed.waitUntilWarm()
        let watchers = try (0..<6).map { _ in try bed.client() }
        var revision = 0
        var ids: [Int] = []
        for watcher in watchers {
            let first = try watcher.call("io.showcase.Roster.Watch", ["storefront": "de"], more: true)
            revision = try #require(first.int("revision"))
            ids = first.appIDs
        }
        // Half of them hang up before the change.
        for watcher in watchers.prefix(3) { shutdown(watcher.fd, Int32(SHUT_RDWR)) }
        try bed.overrideRoster("de", without: [try #require(ids.first)])
        try bed.refresh("de")
        for watcher in watchers.dropFirst(3) {
            #expect(try watcher.next().int("revision") == revision + 1)
        }
        // The daemon still answers on new connections.
        let status = try bed.client().call("io.showcase.Roster.Get", ["storefront": "de"])
        #expect(status.error == nil)
    }
}
