import Dispatch
import FoundationEssentials
@preconcurrency import Glibc
import Locking
import ShowcaseCore

/// Runs a blocking call while a second thread shows a ``ProgressSource``'s line in place on stderr
/// (``TerminalProgress``), and clears it before the call's result is printed.
///
/// Progress is decoration: it never writes to stdout and never changes the exit status. Without a source (stderr
/// is not a terminal, `--json`, or the daemon could not be asked) the call simply runs.
enum ProgressDisplay {
    /// How often the source is asked.
    static let interval = DispatchTimeInterval.milliseconds(500)

    /// Whether progress may be shown at all: stderr is a terminal and stdout is not JSON for a script.
    static func isWanted(json: Bool) -> Bool {
        !json && isatty(STDERR_FILENO) == 1
    }

    /// Runs `work`, showing `source`'s lines while it runs; the line is gone when this returns or throws.
    static func run<T>(showing source: (any ProgressSource)?, _ work: () throws(CommandFailure) -> T)
        throws(CommandFailure) -> T
    {
        guard let source else { return try work() }
        let stop = DispatchSemaphore(value: 0)
        let cleared = DispatchSemaphore(value: 0)
        startDetachedThread {
            var progress = TerminalProgress(isEnabled: true) { text in
                let bytes = Array(text.utf8)
                _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            }
            while stop.wait(timeout: .now() + interval) == .timedOut {
                if let line = source.next() { progress.update(line) }
            }
            progress.finish()
            cleared.signal()
        }
        defer {
            stop.signal()
            cleared.wait()
        }
        return try work()
    }
}
