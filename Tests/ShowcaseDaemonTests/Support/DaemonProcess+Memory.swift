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
}
