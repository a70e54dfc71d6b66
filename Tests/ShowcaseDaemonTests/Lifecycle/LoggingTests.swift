import Foundation
import LookupReplay
import Testing

@Suite("Logging", .serialized)
struct LoggingTests {
    @Test(
        "under journald without its socket every line carries a priority, repeated errors are condensed, queries log nothing"
    )
    func journalPrioritiesAndCondensing() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        bed.retry = "50ms"
        bed.replay.inject(.status(500))
        // No native journal socket there: records fall back to stderr lines (JournalTests covers the socket).
        let absent = bed.directory.appendingPathComponent("no-journal-socket").path
        try bed.start(environment: [
            "JOURNAL_STREAM": DaemonProcess.logIsJournalStream, "SHOWCASE_JOURNAL_SOCKET": absent,
        ])
        try waitFor { bed.requests().count >= 5 }
        for _ in 0..<20 { _ = try bed.get("de") }
        let lines = bed.daemon!.log.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.range(of: #"^<[0-7]>"#, options: .regularExpression) != nil }, "\(lines)")
        let errors = lines.filter { $0.contains("HTTP 500") }
        #expect(errors.count == 1, "\(bed.requests().count) failed requests logged as: \(errors)")
        #expect(errors.first?.hasPrefix("<4>") == true)
        #expect(!lines.contains { $0.contains("Get") })
        #expect(lines.count <= 3, "\(lines)")
    }

    @Test("outside journald each stderr line starts with an RFC 3339 UTC timestamp with milliseconds and the level")
    func stampedLinesOutsideJournald() throws {
        let bed = try TestBed()
        bed.storefronts = ["de"]
        let daemon = try bed.start()
        #expect(try daemon.stop() == 0)
        let lines = daemon.log.split(separator: "\n").map(String.init)
        let stamp = #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z (debug|info|notice|warning|error) "#
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.range(of: stamp, options: .regularExpression) != nil }, "\(lines)")
        #expect(
            lines.contains { $0.range(of: stamp + "showcased .* listening on", options: .regularExpression) != nil })
        #expect(lines.last?.hasSuffix("Z notice stopped") == true, "\(lines)")
    }
}
