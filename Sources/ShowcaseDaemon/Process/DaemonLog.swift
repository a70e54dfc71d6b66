import Foundation
@preconcurrency import Glibc

/// The daemon's event log: one line per event on stderr (start, reload, refresh outcome, upstream error,
/// throttling), never one per successful query.
///
/// Under systemd (`$JOURNAL_STREAM` set) each line starts with a `<N>` syslog priority so the journal
/// files it at the right level. An error identical to one logged in the last `condenseWindow` is counted
/// instead of printed, and the count is reported when it next gets through, so a failing upstream at
/// 20 requests/minute does not flood the journal.
public final class DaemonLog: Sendable {
    /// Syslog priorities used by the daemon.
    public enum Priority: Int, Sendable {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
        case debug = 7
    }

    private struct Repeat {
        var lastPrinted: ContinuousClock.Instant
        var suppressed: Int
    }

    private let journal: Bool
    private let condenseWindow: Duration
    private let repeats = NSLockedBox<[String: Repeat]>([:])

    /// A log that prefixes journal priorities when `JOURNAL_STREAM` is set, and counts instead of printing an error or
    /// warning identical to one printed within `condenseWindow`.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, condenseWindow: Duration = .seconds(600)
    ) {
        journal = environment["JOURNAL_STREAM"] != nil
        self.condenseWindow = condenseWindow
    }

    /// Logs one event line.
    public func log(_ priority: Priority, _ message: String) {
        var line = message
        if priority.rawValue <= Priority.warning.rawValue {
            let now = ContinuousClock.now
            let decision: String?? = repeats.withLock { repeats in
                if var entry = repeats[message], now - entry.lastPrinted < condenseWindow {
                    entry.suppressed += 1
                    repeats[message] = entry
                    return .none
                }
                let suppressed = repeats[message]?.suppressed ?? 0
                repeats[message] = Repeat(lastPrinted: now, suppressed: 0)
                if repeats.count > 512 { repeats.removeAll() }
                return .some(suppressed > 0 ? " (repeated \(suppressed) more times)" : nil)
            }
            guard case .some(let suffix) = decision else { return }
            line += suffix ?? ""
        }
        write(priority, line)
    }

    /// Logs a failure that needs attention (condensed when repeated).
    public func error(_ message: String) { log(.error, message) }
    /// Logs a problem the daemon works around, such as throttling (condensed when repeated).
    public func warning(_ message: String) { log(.warning, message) }
    /// Logs a normal but significant event: start, reload, stop, a setting that needs a restart.
    public func notice(_ message: String) { log(.notice, message) }
    /// Logs routine detail: a refresh outcome, a resolved host identity.
    public func info(_ message: String) { log(.info, message) }

    private func write(_ priority: Priority, _ message: String) {
        let text = (journal ? "<\(priority.rawValue)>" : "") + message.replacingOccurrences(of: "\n", with: " ") + "\n"
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }
}
