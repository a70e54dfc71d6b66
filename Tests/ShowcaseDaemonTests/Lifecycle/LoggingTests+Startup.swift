import Foundation
import Testing

extension LoggingTests {
    @Test("under journald a configuration rejected at startup is logged with an error priority")
    func startupConfigErrorCarriesAPriority() throws {
        let bed = try TestBed()
        bed.extra = "storefront: [de]\n"
        try bed.writeConfig()
        let process = try DaemonProcess(
            config: bed.configURL, socketPath: bed.socketPath, logFile: bed.logURL,
            // Without a native journal socket, so the stderr fallback is what is checked wherever this runs.
            environment: [
                "JOURNAL_STREAM": DaemonProcess.logIsJournalStream,
                "SHOWCASE_JOURNAL_SOCKET": bed.directory.appendingPathComponent("no-journal-socket").path,
            ],
            waitForSocket: false)
        #expect(try process.waitForExit() == 78)
        let lines = process.log.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("\(bed.configURL.path):") }, "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("<3>") }, "\(lines)")
    }
}
