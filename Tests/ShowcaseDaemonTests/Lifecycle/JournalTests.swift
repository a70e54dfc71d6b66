import Foundation
@preconcurrency import Glibc
import Testing

@testable import ShowcaseDaemon

/// The daemon's log under journald: native-protocol records with fields, and the stderr fallback.
@Suite("Journal fields")
struct JournalTests {
    /// A pipe standing in for stderr: the log writes its fallback lines into `write`, the test reads `read`.
    final class Stderr {
        let read: Int32
        let write: Int32

        init() {
            var ends: [Int32] = [0, 0]
            pipe(&ends)
            read = ends[0]
            write = ends[1]
            _ = fcntl(read, F_SETFL, fcntl(read, F_GETFL) | O_NONBLOCK)
        }

        deinit {
            close(read)
            close(write)
        }

        /// `DEVICE:INODE` of the pipe, as systemd sets `JOURNAL_STREAM` for a stderr connected to the journal.
        var journalStream: String {
            var status = stat()
            fstat(write, &status)
            return "\(status.st_dev):\(status.st_ino)"
        }

        /// Everything written so far (the log writes synchronously, so it is all there).
        func drain() -> String {
            var text = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = Glibc.read(read, &buffer, buffer.count)
                if n <= 0 { break }
                text += buffer[..<n]
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// The instant the unit tests' lines outside journald are stamped with: 2026-12-01T18:00:00.123Z.
    static let instant = Date(timeIntervalSince1970: 1_796_148_000.123)

    static func log(
        journal: Bool, socket: String, stderr: Stderr, condense: Duration = .seconds(600),
        clock: ManualClock = ManualClock(now: instant)
    ) -> DaemonLog {
        DaemonLog(
            environment: journal ? ["JOURNAL_STREAM": stderr.journalStream] : [:], condenseWindow: condense,
            journalSocket: socket, errorOutput: stderr.write, clock: clock)
    }

    @Test("under journald a record arrives as MESSAGE, PRIORITY, SYSLOG_IDENTIFIER and the caller's fields")
    func nativeRecord() throws {
        let journal = try JournalListener()
        let stderr = Stderr()
        let log = Self.log(journal: true, socket: journal.path, stderr: stderr)
        log.warning(
            "de: upstream answered HTTP 500; serving the cached roster",
            fields: [.storefront: "de", .host: "com.quietharbor.Knotbook", .error: "HTTP 500"])
        let fields = try journal.receive()
        #expect(
            fields.map(\.name) == [
                "MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "SHOWCASE_ERROR", "SHOWCASE_HOST",
                "SHOWCASE_STOREFRONT",
            ])
        #expect(
            fields.map(\.value) == [
                "de: upstream answered HTTP 500; serving the cached roster", "4", "showcased",
                "HTTP 500", "com.quietharbor.Knotbook", "de",
            ])
        log.info("refreshed de: 12 apps (changed)")
        let info = try journal.receive()
        #expect(info.map(\.name) == ["MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER"])
        #expect(info[1].value == "6")
        #expect(stderr.drain() == "", "a record journald received is not written to stderr as well")
    }

    @Test("a value holding a newline travels in the binary form: name, 64-bit little-endian length, bytes")
    func binaryForm() throws {
        let journal = try JournalListener()
        let stderr = Stderr()
        let log = Self.log(journal: true, socket: journal.path, stderr: stderr)
        log.error("line one\nline two", fields: [.error: "a\nb"])
        let raw = try journal.receiveRaw()
        let message = Array("line one\nline two".utf8)
        let expectedStart = Array("MESSAGE\n".utf8) + [UInt8(message.count), 0, 0, 0, 0, 0, 0, 0] + message + [10]
        #expect(Array(raw.prefix(expectedStart.count)) == expectedStart)
        let fields = try JournalListener.parse(raw)
        #expect(fields.map(\.name) == ["MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "SHOWCASE_ERROR"])
        #expect(fields[0].value == "line one\nline two")
        #expect(fields[1].value == "3")
        #expect(fields[3].value == "a\nb")
        let tail = Array("SHOWCASE_ERROR\n".utf8) + [3, 0, 0, 0, 0, 0, 0, 0] + Array("a\nb\n".utf8)
        #expect(Array(raw.suffix(tail.count)) == tail)
    }

    @Test("without journald's socket, or when nobody receives on it, records fall back to <N>-prefixed stderr lines")
    func fallback() throws {
        let stderr = Stderr()
        let absent = FileManager.default.temporaryDirectory.appendingPathComponent("no-journal-\(UUID())").path
        let log = Self.log(journal: true, socket: absent, stderr: stderr)
        log.notice("started\nwith two lines", fields: [.generation: "1"])
        #expect(stderr.drain() == "<5>started\\x0awith two lines\n")

        // A socket file whose receiver went away (journald stopped): the send fails, the line still gets out.
        let journal = try JournalListener()
        journal.stop()
        #expect(FileManager.default.fileExists(atPath: journal.path))
        let orphan = Self.log(journal: true, socket: journal.path, stderr: stderr)
        orphan.error("cannot serve the socket")
        #expect(stderr.drain() == "<3>cannot serve the socket\n")
    }

    @Test("outside journald (no JOURNAL_STREAM) a line starts with the clock's instant in RFC 3339 and the level")
    func outsideJournald() throws {
        let journal = try JournalListener()
        let stderr = Stderr()
        let clock = ManualClock(now: Self.instant)
        let log = Self.log(journal: false, socket: journal.path, stderr: stderr, clock: clock)
        log.warning("de: throttled", fields: [.storefront: "de"])
        clock.advance(by: .milliseconds(1_877))
        log.info("refreshed de: 12 apps")
        log.notice("reloaded")
        log.error("cannot write the cache")
        #expect(
            stderr.drain() == """
                2026-12-01T18:00:00.123Z warning de: throttled
                2026-12-01T18:00:02.000Z info refreshed de: 12 apps
                2026-12-01T18:00:02.000Z notice reloaded
                2026-12-01T18:00:02.000Z error cannot write the cache

                """)
        #expect(!journal.hasPending())
    }

    @Test("a JOURNAL_STREAM that names another file than stderr is not journald: plain stamped lines, nothing sent")
    func inheritedJournalStream() throws {
        let journal = try JournalListener()
        let stderr = Stderr()
        let other = Stderr()
        let log = DaemonLog(
            environment: ["JOURNAL_STREAM": other.journalStream], condenseWindow: .seconds(600),
            journalSocket: journal.path, errorOutput: stderr.write, clock: ManualClock(now: Self.instant))
        log.notice("started")
        #expect(stderr.drain() == "2026-12-01T18:00:00.123Z notice started\n")
        #expect(!journal.hasPending())
        #expect(!DaemonLog.isJournalStream("8:12345", descriptor: stderr.write))
        #expect(!DaemonLog.isJournalStream("garbage", descriptor: stderr.write))
        #expect(DaemonLog.isJournalStream(stderr.journalStream, descriptor: stderr.write))
    }

    @Test("the <N> fallback line escapes NUL, line breaks and ESC from upstream text, so it forges no record")
    func fallbackEscapesControlCharacters() throws {
        let stderr = Stderr()
        let absent = FileManager.default.temporaryDirectory.appendingPathComponent("no-journal-\(UUID())").path
        let log = Self.log(journal: true, socket: absent, stderr: stderr)
        log.error("de: malformed name 'Note\u{0}<0>forged\rJar\u{1B}[2J\u{2028}\u{85}x'")
        let line = stderr.drain()
        #expect(line == "<3>de: malformed name 'Note\\x00<0>forged\\x0dJar\\x1b[2J\\u2028\\x85x'\n")
        #expect(!line.utf8.contains(0), "a NUL ends a line in journald's stream")
        #expect(line.utf8.filter { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }.count == 1)
    }

    @Test("outside journald an upstream app name with ESC and NUL reaches stderr escaped")
    func plainLineEscapesControlCharacters() throws {
        let stderr = Stderr()
        let log = Self.log(journal: false, socket: "/nonexistent", stderr: stderr)
        log.info("refreshed de: new app '\u{1B}]0;pwned\u{7}Jar\u{0}' (C:\\jar)\n")
        #expect(
            stderr.drain()
                == "2026-12-01T18:00:00.123Z info refreshed de: new app '\\x1b]0;pwned\\x07Jar\\x00' (C:\\\\jar)\\x0a\n"
        )
    }

    @Test("a field value holding a newline and a forged PRIORITY stays one field in the native datagram")
    func nativeValueCannotForgeField() throws {
        let datagram = DaemonLog.journalDatagram(
            .info, "refreshed de\nPRIORITY=0", fields: [.error: "x\nMESSAGE=forged\n", .host: "a\u{0}b=c"])
        let fields = try JournalListener.parse(datagram)
        #expect(fields.map(\.name) == ["MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER", "SHOWCASE_ERROR", "SHOWCASE_HOST"])
        #expect(
            fields.map(\.value) == ["refreshed de\nPRIORITY=0", "6", "showcased", "x\nMESSAGE=forged\n", "a\u{0}b=c"])
    }

    @Test("repeated errors are condensed into one record, and the next one carries the count as a field")
    func condensing() throws {
        let journal = try JournalListener()
        let stderr = Stderr()
        let clock = ManualClock(now: Self.instant)
        let log = Self.log(journal: true, socket: journal.path, stderr: stderr, condense: .seconds(2), clock: clock)
        for _ in 0..<4 { log.error("de: HTTP 500", fields: [.storefront: "de"]) }
        let first = Dictionary(uniqueKeysWithValues: try journal.receive().map { ($0.name, $0.value) })
        #expect(first["MESSAGE"] == "de: HTTP 500")
        #expect(first["SHOWCASE_REPEATED"] == nil)
        #expect(!journal.hasPending(), "the three repeats inside the window were sent")
        clock.advance(by: .milliseconds(2_200))
        log.error("de: HTTP 500", fields: [.storefront: "de"])
        let next = Dictionary(uniqueKeysWithValues: try journal.receive().map { ($0.name, $0.value) })
        #expect(next["MESSAGE"] == "de: HTTP 500 (repeated 3 more times)")
        #expect(next["SHOWCASE_REPEATED"] == "3")
        #expect(next["SHOWCASE_STOREFRONT"] == "de")
    }

    @Test("once: a key is new the first time only, and past onceLimit keys the set starts over instead of growing")
    func onceOnlyBounded() {
        let log = DaemonLog(environment: [:])
        #expect(log.once("device model Watch9,9"))
        #expect(!log.once("device model Watch9,9"), "the second time: already logged")
        #expect(log.once("history /state/history/x/us.log"), "another key is new")
        for index in 2..<DaemonLog.onceLimit { #expect(log.once("history \(index)")) }
        #expect(!log.once("device model Watch9,9"), "still remembered at the limit")
        // One more key is past the limit: the set starts over, so an earlier key may be logged once more.
        #expect(log.once("history one too many"))
        #expect(log.once("device model Watch9,9"))
        #expect(!log.once("history one too many"))
    }

    @Test("field names follow journald's rules; a caller's MESSAGE or PRIORITY cannot override the log's own")
    func fieldNames() throws {
        #expect(DaemonLog.Field("SHOWCASE_STOREFRONT") == .storefront)
        #expect(DaemonLog.Field("CODE_LINE2")?.name == "CODE_LINE2")
        for bad in [
            "", "showcase_host", "_SOURCE", "2FA", "SHOWCASE-HOST", "SHOWCASE HOST", String(repeating: "A", count: 65),
        ] {
            #expect(DaemonLog.Field(bad) == nil, "\(bad) was accepted")
        }
        let datagram = DaemonLog.journalDatagram(
            .notice, "reloaded", fields: [DaemonLog.Field("MESSAGE")!: "forged", DaemonLog.Field("PRIORITY")!: "0"])
        let fields = try JournalListener.parse(datagram)
        #expect(fields.map(\.name) == ["MESSAGE", "PRIORITY", "SYSLOG_IDENTIFIER"])
        #expect(fields.map(\.value) == ["reloaded", "5", "showcased"])
    }

    @Test("the real daemon under journald sends its start and stop to the journal socket, not to stderr")
    func daemonUnderJournald() throws {
        let journal = try JournalListener()
        let bed = try TestBed()
        bed.storefronts = ["de"]
        let daemon = try bed.start(
            environment: ["JOURNAL_STREAM": DaemonProcess.logIsJournalStream, "SHOWCASE_JOURNAL_SOCKET": journal.path])
        let started = try journal.receive { $0["MESSAGE"]?.contains("listening on") == true }
        #expect(started["PRIORITY"] == "5")
        #expect(started["SYSLOG_IDENTIFIER"] == "showcased")
        #expect(try daemon.stop() == 0)
        let stopped = try journal.receive { $0["MESSAGE"] == "stopped" }
        #expect(stopped["SYSLOG_IDENTIFIER"] == "showcased")
        #expect(!daemon.log.contains("listening on"), "a record journald received went to stderr too: \(daemon.log)")
        #expect(!daemon.log.contains("<5>"), "stderr: \(daemon.log)")
    }

    @Test("the real daemon's refresh outcomes carry SHOWCASE_STOREFRONT, and a failure SHOWCASE_ERROR")
    func refreshFieldsUnderJournald() throws {
        let journal = try JournalListener()
        let bed = try TestBed()
        bed.storefronts = ["us"]
        bed.replay.inject(.status(500), matching: "limit=200&country=de")
        try bed.start(environment: [
            "JOURNAL_STREAM": DaemonProcess.logIsJournalStream, "SHOWCASE_JOURNAL_SOCKET": journal.path,
        ])
        try bed.refresh("de")
        let failed = try journal.receive { $0["MESSAGE"]?.hasPrefix("refresh of de failed") == true }
        #expect(failed["SHOWCASE_STOREFRONT"] == "de", "\(failed)")
        #expect(failed["SHOWCASE_ERROR"]?.contains("HTTP 500") == true, "\(failed)")
        #expect(failed["PRIORITY"] == "4", "a transport failure is a warning: \(failed)")

        bed.replay.clearFaults()
        try bed.refresh("de")
        let refreshed = try journal.receive { $0["MESSAGE"]?.hasPrefix("refreshed de:") == true }
        #expect(refreshed["SHOWCASE_STOREFRONT"] == "de", "\(refreshed)")
        #expect(refreshed["SHOWCASE_ERROR"] == nil, "\(refreshed)")
    }

    @Test("the real daemon's identity records carry SHOWCASE_HOST and the storefront")
    func identityFieldsUnderJournald() throws {
        let journal = try JournalListener()
        let bed = try TestBed()
        bed.storefronts = ["de"]
        try bed.start(environment: [
            "JOURNAL_STREAM": DaemonProcess.logIsJournalStream, "SHOWCASE_JOURNAL_SOCKET": journal.path,
        ])
        let resolved = try journal.receive { $0["MESSAGE"]?.hasPrefix("resolved ") == true }
        #expect(resolved["SHOWCASE_HOST"] == TestBed.knotbook, "\(resolved)")
        #expect(resolved["SHOWCASE_STOREFRONT"] == "de", "\(resolved)")
    }
}
