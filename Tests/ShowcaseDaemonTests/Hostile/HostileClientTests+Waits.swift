import BuiltProducts
import Foundation
import Testing

extension HostileClientTests {
    /// One `Roster.Get` message with `waitMs`, NUL-terminated, oneway or not.
    static func waitingGet(_ storefront: String, waitMs: Int, oneway: Bool) -> [UInt8] {
        let flag = oneway ? #","oneway":true"# : ""
        let text =
            #"{"method":"io.showcase.Roster.Get","parameters":{"storefront":""# + storefront
            + #"","waitMs":\#(waitMs)}\#(flag)}"#
        return Array(text.utf8) + [0]
    }

    @Test("calls that wait for a warming roster — oneway, or from clients that hang up — leave memory where it was")
    func waitsOnAWarmingRosterAreBounded() throws {
        let bed = try TestBed()
        // jp's fetch must outlast the whole test, however slow the machine: under a sanitizer on a loaded CI
        // machine the bursts below took longer than a 10 s lookup.timeout, the fetch failed, and jp was no longer
        // warming. The test bed kills the daemon at the end, so the long timeout costs nothing.
        bed.timeout = "900s"
        try bed.start()
        try bed.waitUntilWarm()
        // jp is not kept warm, and its first fetch hangs: it stays warming for the whole test.
        bed.replay.inject(.delay(.seconds(1800)), matching: "country=jp")
        let daemon = try #require(bed.daemon)
        #expect(try bed.get("jp")["state"] as? String == "warming")
        let before = try daemon.residentBytes()

        // 50,000 oneway calls, each asking to wait for ~31 years: they get no answer, so they must not wait.
        let oneway = try bed.client(receiveTimeout: 60)
        let call = Self.waitingGet("jp", waitMs: 1_000_000_000_000, oneway: true)
        var burst: [UInt8] = []
        burst.reserveCapacity(call.count * 1000)
        for _ in 0..<1000 { burst += call }
        for _ in 0..<50 { #expect(oneway.send(burst)) }
        // Calls on one connection are handled in order: this answer means every oneway call has been handled.
        #expect(try oneway.call("io.showcase.Roster.Storefronts").error == nil)

        // 3 clients each pipeline 5,000 waiting calls and hang up: their waits (timers included) must end.
        let waiting = Self.waitingGet("jp", waitMs: 1_000_000_000_000, oneway: false)
        var calls: [UInt8] = []
        for _ in 0..<5000 { calls += waiting }
        let descriptors = try daemon.openFileCount()
        for _ in 0..<3 {
            let client = try bed.client()
            #expect(client.send(calls))
            // The client goes away here, with its calls still waiting.
        }
        // Memory is read once the daemon has read the last calls and closed the three connections (its descriptor
        // count is back where it was), not after a fixed pause that a loaded machine may outlast.
        try daemon.waitForOpenFiles(atMost: descriptors)
        _ = try bed.get("us")
        // The daemon still answers, and jp is still warming (nothing above ended its wait by luck).
        #expect(try bed.get("jp")["state"] as? String == "warming")
        let after = try daemon.residentBytes()
        let grown = after - before
        // Under a sanitizer (make sanitize) shadow memory and redzones add to every allocation (93 MiB seen under
        // TSan): a wider bound, still far below the 451 MiB the unbounded waits took.
        let bound = BuiltProducts.sanitizerEnvironment.isEmpty ? 64 << 20 : 160 << 20
        #expect(grown < bound, "RSS grew by \(grown >> 20) MiB (\(before >> 20) → \(after >> 20) MiB)")
        #expect(daemon.process.isRunning)
    }
}
