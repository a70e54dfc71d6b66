import Foundation
@preconcurrency import Glibc
import Testing

@Suite("Watch", .serialized)
struct WatchTests {
    @Test("Watch delivers a new revision after a changed refresh and nothing after an identical one")
    func watchRevisions() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        try bed.start()
        try bed.waitUntilWarm()
        let watcher = try bed.client()
        let first = try watcher.call("io.showcase.Roster.Watch", ["storefront": "de"], more: true)
        #expect(first.continues)
        #expect(first.string("state") == "fresh")
        let revision = try #require(first.int("revision"))
        let ids = first.appIDs
        #expect(ids.count >= 3)

        try bed.overrideRoster("de", without: [ids[0]])
        try bed.refresh("de")
        let second = try watcher.next()
        #expect(second.int("revision") == revision + 1)
        #expect(second.appIDs == Array(ids.dropFirst()))

        try bed.refresh("de")  // identical content: no reply may follow for it

        try bed.overrideRoster("de", without: [ids[0], ids[1]])
        try bed.refresh("de")
        let third = try watcher.next()
        #expect(third.int("revision") == revision + 2, "a reply came for the identical refresh: \(third)")
        #expect(third.appIDs == Array(ids.dropFirst(2)))
    }

    @Test("SIGTERM ends an open Watch with a final reply instead of cutting it")
    func watchEndsAtShutdown() throws {
        let bed = try TestBed()
        bed.storefronts = ["us"]
        try bed.start()
        try bed.waitUntilWarm()
        let watcher = try bed.client()
        let first = try watcher.call("io.showcase.Roster.Watch", ["storefront": "us"], more: true)
        #expect(first.continues)
        bed.daemon!.send(SIGTERM)
        let last = try watcher.next()
        #expect(!last.continues)
        #expect(last.error == nil)
        #expect(last.appIDs == first.appIDs)
        #expect(try bed.daemon!.waitForExit() == 0)
    }
}
