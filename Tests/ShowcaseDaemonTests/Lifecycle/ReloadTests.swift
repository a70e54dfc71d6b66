import Foundation
@preconcurrency import Glibc
import Testing

@Suite("Reload", .serialized)
struct ReloadTests {
    /// Starts a warm daemon whose overlay pins `pinned` first; returns the bed and the roster's app ids.
    func warmBed() throws -> (TestBed, [Int]) {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let ids = try bed.get("de").appIDs
        #expect(ids.count >= 3)
        return (bed, ids)
    }

    @Test("a broken overlay is rejected with its location and the old overlay keeps applying")
    func brokenOverlayRejected() throws {
        let (bed, ids) = try warmBed()
        try bed.writeOverlay("order: [\(ids[2])]\ntaglines:\n  \(ids[2]): \"Pinned\"\n")
        #expect(try bed.client().call("io.showcase.Admin.Reload").int("generation") == 2)
        #expect(try bed.get("de").appIDs.first == ids[2])

        try bed.writeOverlay("order: [\(ids[1])]\nexcluded: [not-a-number]\n")
        let reply = try bed.client().call("io.showcase.Admin.Reload")
        #expect(reply.error == "io.showcase.Admin.ConfigInvalid", "\(reply)")
        #expect(reply.string("file") == bed.overlayURL.path)
        #expect(reply.int("line") == 2)
        #expect((reply.int("column") ?? 0) > 0)
        #expect(reply.string("message")?.isEmpty == false)
        let answer = try bed.get("de")
        #expect(answer.appIDs.first == ids[2])
        #expect(answer.apps.first?["tagline"] as? String == "Pinned")
        let status = try bed.status()
        #expect(status.int("configGeneration") == 2)
        #expect((status.string("lastReloadError") ?? "").contains(bed.overlayURL.path))
    }

    @Test("a valid overlay applies to the next query at once, with no upstream request")
    func validOverlayApplies() throws {
        let (bed, ids) = try warmBed()
        let before = bed.requests().count
        try bed.writeOverlay("order: [\(ids[2])]\nexcluded: [\(ids[0])]\ntaglines:\n  \(ids[2]): \"New\"\n")
        #expect(try bed.client().call("io.showcase.Admin.Reload").int("generation") == 2)
        let answer = try bed.get("de")
        #expect(answer.appIDs.first == ids[2])
        #expect(!answer.appIDs.contains(ids[0]))
        #expect(answer.apps.first?["tagline"] as? String == "New")
        #expect(bed.requests().count == before)
        #expect(try bed.status()["lastReloadError"] == nil)
    }

    @Test("SIGHUP reloads the same way: valid applies, broken is kept out and shown in Status")
    func sighupReloads() throws {
        let (bed, ids) = try warmBed()
        let before = bed.requests().count
        try bed.writeOverlay("order: [\(ids[1])]\n")
        bed.daemon!.send(SIGHUP)
        try waitFor { try bed.status().int("configGeneration") == 2 }
        #expect(try bed.get("de").appIDs.first == ids[1])

        try bed.writeOverlay("order: [\(ids[2])\n")
        bed.daemon!.send(SIGHUP)
        try waitFor { try bed.status()["lastReloadError"] != nil }
        #expect(try bed.status().int("configGeneration") == 2)
        #expect(try bed.get("de").appIDs.first == ids[1])
        #expect(bed.requests().count == before)
    }
}

/// Polls `condition` until true (or fails after `timeout`): for effects of signals, which have no reply.
func waitFor(timeout: Duration = .seconds(10), _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return }
        usleep(20_000)
    }
    throw HarnessError("condition not met in time")
}

@Suite("Reload of storefronts", .serialized)
struct ReloadStorefrontTests {
    @Test("a reload starts warming newly listed storefronts and stops listing removed ones")
    func storefrontsFollowReload() throws {
        let bed = try TestBed()
        bed.storefronts = ["us", "de"]
        try bed.start()
        try bed.waitUntilWarm()
        bed.storefronts = ["de", "jp"]
        try bed.writeConfig()
        #expect(try bed.client().call("io.showcase.Admin.Reload").int("generation") == 2)
        try bed.waitUntilWarm()
        let codes = (try bed.status()["storefronts"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        #expect(codes.sorted() == ["de", "jp"])
        #expect(bed.requests(matching: "country=jp").count == 1)
        // The removed storefront's roster is still answered from what is cached.
        #expect(!(try bed.get("us").appIDs.isEmpty))
    }
}

extension ReloadTests {
    @Test("a successful reload clears lastReloadError, by Admin.Reload and by SIGHUP alike")
    func successfulReloadClearsTheError() throws {
        let (bed, ids) = try warmBed()
        for trigger in ["Admin.Reload", "SIGHUP"] {
            let generation = try #require(try bed.status().int("configGeneration"))
            try bed.writeOverlay("order: [\(ids[1])\n")
            #expect(try bed.client().call("io.showcase.Admin.Reload").error == "io.showcase.Admin.ConfigInvalid")
            #expect(try bed.status()["lastReloadError"] is String, "\(trigger)")

            try bed.writeOverlay("order: [\(ids[1])]\n")
            if trigger == "SIGHUP" {
                bed.daemon!.send(SIGHUP)
                try waitFor { try bed.status().int("configGeneration") == generation + 1 }
            } else {
                #expect(try bed.client().call("io.showcase.Admin.Reload").int("generation") == generation + 1)
            }
            let status = try bed.status()
            #expect(status["lastReloadError"] == nil, "\(trigger): \(status)")
            #expect(try bed.get("de").appIDs.first == ids[1])
        }
    }
}
