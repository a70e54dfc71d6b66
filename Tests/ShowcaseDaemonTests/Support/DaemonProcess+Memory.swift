import Foundation

extension DaemonProcess {
    /// The daemon's resident set size in bytes (`VmRSS` in /proc/PID/status).
    func residentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw HarnessError("no VmRSS in /proc/\(pid)/status") }
        return kilobytes * 1024
    }

    /// How many file descriptors the daemon holds open (the entries of /proc/PID/fd): each client connection is
    /// one, so a count back at its earlier value means the daemon has read to the end of, and closed, the
    /// connections opened since.
    func openFileCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }

    /// Polls until the daemon holds at most `count` file descriptors (see ``openFileCount()``); throws after
    /// `timeout`, a bound against a hang, not a speed asserted.
    func waitForOpenFiles(atMost count: Int, timeout: Duration = .seconds(120)) throws {
        let deadline = ContinuousClock.now + timeout
        while try openFileCount() > count {
            guard ContinuousClock.now < deadline else {
                let held = try openFileCount()
                throw HarnessError("the daemon still holds \(held) descriptors, expected at most \(count)")
            }
            usleep(20_000)
        }
    }
}
