import Foundation
import Testing

@Suite("Status tells what the lookup cut and dropped", .serialized)
struct StatusFidelityTests {
    @Test("a 200-row roster is truncated in Status and logged; a dropped row is counted in Status and logged")
    func truncatedAndDropped() throws {
        let bed = try TestBed()
        bed.hosts = ["com.tallyworks.Tally001"]
        bed.storefronts = ["us"]
        try bed.start()
        try bed.waitUntilWarm()
        let entry = try #require(try bed.statusEntry("us"))
        #expect(entry["truncated"] as? Bool == true, "\(entry)")
        #expect(entry["droppedRows"] as? Int == 1, "\(entry)")
        // 199 apps decoded; Status counts what Get serves, which leaves out the host app itself.
        #expect(entry["apps"] as? Int == 198)
        #expect(try bed.get("us").appIDs.count == 198)
        let log = bed.daemon?.log ?? ""
        #expect(log.contains("the us roster of developer 1643000001: 1 row dropped: 1 without trackName"), "\(log)")
        #expect(log.contains("holds 200 software rows"), "\(log)")

        let small = try TestBed()
        small.storefronts = ["us"]
        try small.start()
        try small.waitUntilWarm()
        let plain = try #require(try small.statusEntry("us"))
        #expect(plain["truncated"] as? Bool == false)
        #expect(plain["droppedRows"] as? Int == 0)
    }
}
