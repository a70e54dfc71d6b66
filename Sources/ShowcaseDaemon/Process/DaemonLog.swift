import FoundationEssentials
@preconcurrency import Glibc
import Locking
import ShowcaseCore

/// The daemon's event log: one record per event (start, reload, refresh outcome, upstream error, throttling),
/// never one per successful query.
///
/// Under systemd (`$JOURNAL_STREAM` names stderr's device and inode, so stderr really is the journal's stream) each
/// record goes to journald through its native protocol, one datagram to `/run/systemd/journal/socket` carrying
/// `MESSAGE`, `PRIORITY`, `SYSLOG_IDENTIFIER=showcased` and the caller's fields (``Field``), so
/// `journalctl -u showcased SHOWCASE_STOREFRONT=de` finds a storefront's events. When that socket is absent or a
/// send fails, the record is written to stderr instead, as a line starting with a `<N>` syslog priority so the
/// journal's stream still files it at the right level. Anywhere else (a terminal, a file, a unit whose stderr was
/// redirected) a line is for a person: an RFC 3339 UTC timestamp with milliseconds from the injected clock, the
/// syslog level word, then the message: `2026-12-01T18:00:00.123Z warning de: throttled`.
///
/// A stderr line shows every control character of the message escaped (`escapingControlCharacters()`: `\x0a`,
/// `\x00`, `\x1b`, `\u2028`), so upstream text quoted in a record can neither end the line, forge a `<0>`
/// priority after a NUL, nor drive the terminal. A native datagram keeps values as they are: a value holding a
/// newline goes in the length-framed form, so it cannot start a field of its own either.
///
/// An error or warning identical to one logged in the last `condenseWindow` is counted instead of logged, and
/// the count is reported when it next gets through, so a failing upstream at 20 requests/minute does not flood
/// the journal.
public final class DaemonLog: Sendable {
    /// Syslog priorities used by the daemon.
    public enum Priority: Int, Sendable {
        case error = 3
        case warning = 4
        case notice = 5
        case info = 6
        case debug = 7

        /// The syslog name of the level, as a stderr line outside journald shows it (`warning`).
        public var word: String {
            switch self {
            case .error: "error"
            case .warning: "warning"
            case .notice: "notice"
            case .info: "info"
            case .debug: "debug"
            }
        }
    }

    /// The name of a journal field a record may carry besides its message, such as `SHOWCASE_STOREFRONT`.
    ///
    /// Names follow journald's rules (upper-case letters, digits and `_`, not starting with a digit or `_`,
    /// at most 64 characters): journald silently drops a field whose name breaks them, so a name that would is
    /// refused when it is made, not lost in the journal.
    public struct Field: Hashable, Sendable, Comparable {
        /// The field name as it appears in the journal.
        public let name: String

        /// A field named `name`, or nil when journald would reject the name.
        public init?(_ name: String) {
            let bytes = Array(name.utf8)
            guard let first = bytes.first, bytes.count <= 64,
                first != UInt8(ascii: "_"), !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
                bytes.allSatisfy({
                    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_")
                })
            else { return nil }
            self.name = name
        }

        private init(known name: String) { self.name = name }

        /// `SHOWCASE_STOREFRONT`: the alpha-2 storefront the event concerns (`de`).
        public static let storefront = Field(known: "SHOWCASE_STOREFRONT")
        /// `SHOWCASE_LANGUAGE`: the roster language of a multilingual storefront (`fr`).
        public static let language = Field(known: "SHOWCASE_LANGUAGE")
        /// `SHOWCASE_HOST`: the host app's bundle identifier.
        public static let host = Field(known: "SHOWCASE_HOST")
        /// `SHOWCASE_ERROR`: the error's own text, apart from the sentence around it in `MESSAGE`.
        public static let error = Field(known: "SHOWCASE_ERROR")
        /// `SHOWCASE_GENERATION`: the configuration generation an event happened under or produced.
        public static let generation = Field(known: "SHOWCASE_GENERATION")
        /// `SHOWCASE_REPEATED`: how many identical records were condensed into this one (set by the log).
        public static let repeated = Field(known: "SHOWCASE_REPEATED")

        /// Orders fields by name, so a record's datagram is the same whatever order the caller gave them in.
        public static func < (lhs: Field, rhs: Field) -> Bool { lhs.name < rhs.name }
    }

    /// journald's socket for native-protocol datagrams, documented as a stable interface.
    public static let journalSocketPath = "/run/systemd/journal/socket"

    private struct Repeat {
        var lastPrinted: ContinuousClock.Instant
        var suppressed: Int
    }

    /// What the log remembers, behind its one lock.
    private struct Memory {
        /// Errors and warnings logged lately, to condense identical ones.
        var repeats: [String: Repeat] = [:]
        /// The keys ``once(_:)`` answered true for.
        var once: Set<String> = []
    }

    /// Most keys ``once(_:)`` remembers.
    static let onceLimit = 4096

    private let journalStream: Bool
    private let journal: JournalSocket?
    private let errorOutput: Int32
    private let condenseWindow: Duration
    private let clock: any ShowcaseClock
    /// Whether each stderr line first clears the terminal line (a one-shot run's progress is shown there).
    private let clearsLine: Bool
    private let memory = LockedBox(Memory())

    /// A log that sends records to journald when `JOURNAL_STREAM` is set (falling back to `<N>`-prefixed stderr
    /// lines), and counts instead of logging an error or warning identical to one logged within `condenseWindow`.
    ///
    /// `journalSocket` replaces journald's socket path; when nil, `SHOWCASE_JOURNAL_SOCKET` from `environment`
    /// does, else ``journalSocketPath``. Tests bind a socket of their own there. `clock` stamps the lines written
    /// outside journald and times the condensing.
    public convenience init(
        environment: [String: String] = ProcessInfo.processInfo.environment, condenseWindow: Duration = .seconds(600),
        journalSocket: String? = nil, clock: any ShowcaseClock = SystemClock()
    ) {
        self.init(
            environment: environment, condenseWindow: condenseWindow, journalSocket: journalSocket, errorOutput: 2,
            clock: clock)
    }

    /// A log for a run whose in-place progress line (``OneShotProgress``) shares the terminal on stderr: each
    /// stderr line first clears that line (`\r`, erase to its end), so a record never continues the progress
    /// text; the progress is drawn again below it at its next update.
    convenience init(clearingProgressLine: Bool, clock: any ShowcaseClock = SystemClock()) {
        self.init(
            environment: ProcessInfo.processInfo.environment, condenseWindow: .seconds(600), journalSocket: nil,
            errorOutput: 2, clock: clock, clearsLine: clearingProgressLine)
    }

    /// Like the public initializer, writing the stderr lines to `errorOutput` instead of descriptor 2.
    init(
        environment: [String: String], condenseWindow: Duration, journalSocket: String?, errorOutput: Int32,
        clock: any ShowcaseClock = SystemClock(), clearsLine: Bool = false
    ) {
        journalStream = Self.isJournalStream(environment["JOURNAL_STREAM"], descriptor: errorOutput)
        self.clock = clock
        self.clearsLine = clearsLine
        let path = journalSocket ?? environment["SHOWCASE_JOURNAL_SOCKET"] ?? Self.journalSocketPath
        journal = journalStream ? JournalSocket(path: path) : nil
        self.errorOutput = errorOutput
        self.condenseWindow = condenseWindow
    }

    /// Logs one event, with journal `fields` besides its message (ignored on stderr: the message says it all).
    public func log(_ priority: Priority, _ message: String, fields: [Field: String] = [:]) {
        var text = message
        var fields = fields
        if priority.rawValue <= Priority.warning.rawValue {
            let now = clock.instant
            let decision: Int? = memory.withLock { memory in
                if var entry = memory.repeats[message], now - entry.lastPrinted < condenseWindow {
                    entry.suppressed += 1
                    memory.repeats[message] = entry
                    return nil
                }
                let suppressed = memory.repeats[message]?.suppressed ?? 0
                memory.repeats[message] = Repeat(lastPrinted: now, suppressed: 0)
                if memory.repeats.count > 512 { memory.repeats.removeAll() }
                return suppressed
            }
            guard let suppressed = decision else { return }
            if suppressed > 0 {
                text += " (repeated \(suppressed) more times)"
                fields[.repeated] = String(suppressed)
            }
        }
        if let journal, journal.send(Self.journalDatagram(priority, text, fields: fields)) { return }
        writeLine(priority, text)
    }

    /// Whether `key` is new to this log: true the first time, false after, so a condition found on every refresh or
    /// read (an unknown device model, a hostile history file) is logged once per run. A key names its concern
    /// (`history …`, `device model …`), so two callers' keys never meet. At most ``onceLimit`` keys are remembered:
    /// the next new key starts the set over, so each key seen before may be logged once more — memory stays bounded
    /// whatever upstream sends or a state folder holds, and a flood of new keys is still one line per key.
    func once(_ key: String) -> Bool {
        memory.withLock { memory in
            guard !memory.once.contains(key) else { return false }
            if memory.once.count >= Self.onceLimit { memory.once.removeAll() }
            memory.once.insert(key)
            return true
        }
    }

    /// Logs a failure that needs attention (condensed when repeated).
    public func error(_ message: String, fields: [Field: String] = [:]) { log(.error, message, fields: fields) }
    /// Logs a problem the daemon works around, such as throttling (condensed when repeated).
    public func warning(_ message: String, fields: [Field: String] = [:]) { log(.warning, message, fields: fields) }
    /// Logs a normal but significant event: start, reload, stop, a setting that needs a restart.
    public func notice(_ message: String, fields: [Field: String] = [:]) { log(.notice, message, fields: fields) }
    /// Logs routine detail: a refresh outcome, a resolved host identity.
    public func info(_ message: String, fields: [Field: String] = [:]) { log(.info, message, fields: fields) }

    /// One record in journald's native protocol: `KEY=value\n` per field, or, for a value holding a newline,
    /// `KEY\n`, the value's length as 64-bit little-endian, the value and `\n`.
    static func journalDatagram(_ priority: Priority, _ message: String, fields: [Field: String]) -> [UInt8] {
        var datagram: [UInt8] = []
        func append(_ name: String, _ value: String) {
            let bytes = Array(value.utf8)
            datagram += Array(name.utf8)
            if bytes.contains(UInt8(ascii: "\n")) {
                datagram.append(UInt8(ascii: "\n"))
                withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { datagram += $0 }
            } else {
                datagram.append(UInt8(ascii: "="))
            }
            datagram += bytes
            datagram.append(UInt8(ascii: "\n"))
        }
        append("MESSAGE", message)
        append("PRIORITY", String(priority.rawValue))
        append("SYSLOG_IDENTIFIER", "showcased")
        for field in fields.keys.sorted() where !Self.reserved.contains(field.name) {
            append(field.name, fields[field]!)
        }
        return datagram
    }

    /// Fields the log writes itself; a caller's field of the same name would make the record ambiguous.
    private static let reserved: Set<String> = ["MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER"]

    /// Whether `JOURNAL_STREAM` (`DEVICE:INODE`, as systemd sets it) names the file `descriptor` writes to: a
    /// variable inherited by a process whose stderr now goes elsewhere does not make that a journal stream.
    static func isJournalStream(_ value: String?, descriptor: Int32) -> Bool {
        let parts = value?.split(separator: ":", omittingEmptySubsequences: false) ?? []
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    private func writeLine(_ priority: Priority, _ message: String) {
        let prefix =
            journalStream ? "<\(priority.rawValue)>" : "\(RFC3339.milliseconds(clock.now)) \(priority.word) "
        // Escaped, not just joined: journald's stream also ends a line at NUL, and a terminal obeys ESC.
        var bytes = Array(((clearsLine ? "\r\u{1b}[K" : "") + prefix + message.escapingControlCharacters() + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes {
                Glibc.write(errorOutput, $0.baseAddress! + offset, $0.count - offset)
            }
            if n <= 0 { return }
            offset += n
        }
    }

    /// An unconnected datagram socket that sends records to journald's socket path.
    ///
    /// Unconnected, so a journald that restarts (and re-creates its socket) is reached again by the next record;
    /// nonblocking, so a journal that cannot keep up costs a stderr line instead of stalling the daemon.
    private final class JournalSocket: Sendable {
        private let descriptor: Int32
        private let address: sockaddr_un

        init?(path: String) {
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
            let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { return nil }
            self.descriptor = descriptor
            self.address = address
        }

        deinit { close(descriptor) }

        /// Sends one datagram; false when it did not arrive (no socket there, journal busy, record too large).
        func send(_ datagram: [UInt8]) -> Bool {
            var address = self.address
            let sent = datagram.withUnsafeBytes { bytes in
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        sendto(
                            descriptor, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL), $0,
                            socklen_t(MemoryLayout<sockaddr_un>.size))
                    }
                }
            }
            return sent == datagram.count
        }
    }
}
