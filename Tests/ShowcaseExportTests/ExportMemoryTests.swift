import Foundation
import ShowcaseCore
import ShowcaseExport
import Testing

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// `ExportMemory`: what the daemon's writer remembers between passes, so an unchanged file is known from one
/// `lstat` — and what must still make it read a file back and rewrite it.
@Suite("Export memory")
struct ExportMemoryTests {
    let host = Samples.host
    static let first = Date(timeIntervalSince1970: 1_796_000_000)
    static let later = Date(timeIntervalSince1970: 1_796_086_400)
    /// The memories' clock: moved past the files' ctimes, never slept on.
    let clock = WallClock()

    /// The daemon's kind of roster (revisions kept in the documents) in `storefront`, with `tagline` on the iOS
    /// app Lanternlight.
    func latest(_ storefront: Storefront, tagline: String = "A night light that knows the tide", now: Date)
        -> ExportRoster
    {
        ExportRoster(
            host: host, storefront: storefront, state: .fresh, fetchedAt: Samples.fetchedAt,
            content: .latest(
                apps: [
                    .ios: [
                        Samples.exported(Samples.lanternlight, tagline: .plain(tagline)),
                        Samples.exported(Samples.windrose),
                    ],
                    .macos: [Samples.exported(Samples.chartTable)],
                ], now: now))
    }

    /// Exports `rosters` twice with `memory` (made with ``clock``), the second time once the clock says the files
    /// are older than the clock tick a file's times could hide a change in, so the memory then vouches for every file.
    func settle(_ writer: ExportWriter, _ rosters: [ExportRoster], _ memory: inout ExportMemory) throws {
        let written = writer.export(rosters, remembering: &memory)
        try #require(written.errors.isEmpty)
        clock.settleEverything()
        let checked = writer.export(rosters, remembering: &memory)
        try #require(checked.errors.isEmpty && checked.written == 0)
    }

    /// Every file's mtime in nanoseconds, by path.
    func mtimes(_ directory: TemporaryDirectory) -> [String: Int64] { times(directory, \.st_mtim) }

    /// Every file's `time` (`\.st_mtim`, `\.st_ctim`) in nanoseconds since the epoch, by path.
    func times(_ directory: TemporaryDirectory, _ time: KeyPath<stat, timespec>) -> [String: Int64] {
        Dictionary(
            uniqueKeysWithValues: directory.files().map { file in
                var info = stat()
                _ = stat(directory.file(file), &info)
                return (file, Int64(info[keyPath: time].tv_sec) * 1_000_000_000 + Int64(info[keyPath: time].tv_nsec))
            })
    }

    @Test("knows unchanged files from their identity alone, reading none back, and leaves them alone")
    func readsNothing() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        let rosters = [latest(Samples.us, now: Self.first), latest(Samples.de, now: Self.first)]
        var memory = ExportMemory(clock: clock)
        try settle(writer, rosters, &memory)
        #expect(memory.count == 10)
        let before = mtimes(directory)

        let again = writer.export(
            [latest(Samples.us, now: Self.later), latest(Samples.de, now: Self.later)],
            remembering: &memory)
        #expect(again.errors.isEmpty)
        #expect(again.filesRead == 0)
        #expect(again.written == 0)
        #expect(again.unchanged == 10)
        #expect(mtimes(directory) == before)

        // Without the memory, the same pass reads every file back.
        #expect(writer.export(rosters).filesRead == 10)
    }

    @Test("a file read back is trusted only once the memory's clock is past its ctime by the settle margin")
    func settlesByTheClock() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        let rosters = [latest(Samples.us, now: Self.first)]
        var memory = ExportMemory(clock: clock)
        let written = writer.export(rosters, remembering: &memory).written
        try #require(written == 6, "two documents, index.json and their .gz")
        let ctimes = times(directory, \.st_ctim).values.map { Double($0) / 1e9 }
        let (oldest, newest) = (try #require(ctimes.min()), try #require(ctimes.max()))

        // Within the margin of every file's ctime: each is read back and compared, and none is remembered.
        clock.set(Date(timeIntervalSince1970: oldest + 0.05))
        for _ in 0..<2 {
            let early = writer.export(rosters, remembering: &memory)
            #expect(early.filesRead == written)
            #expect(early.written == 0)
            #expect(memory.count == 0)
        }
        // Past it: read back once more and remembered, then known from their identity alone.
        clock.set(Date(timeIntervalSince1970: newest + 0.2))
        #expect(writer.export(rosters, remembering: &memory).filesRead == written)
        #expect(memory.count == written)
        let trusted = writer.export(rosters, remembering: &memory)
        #expect(trusted.filesRead == 0)
        #expect(trusted.unchanged == written)
    }

    @Test("rewrites a remembered document edited in place, even with its size and mtime put back")
    func editedInPlace() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        let rosters = [latest(Samples.us, now: Self.first)]
        var memory = ExportMemory(clock: clock)
        try settle(writer, rosters, &memory)
        let document = "v1/\(host)/us/ios.json"
        let original = try directory.read(document)

        // One byte of an app's name, changed where it stands, and the mtime set back to what it was: only the
        // ctime (which no call can set) tells.
        var info = stat()
        try #require(stat(directory.file(document), &info) == 0)
        let offset = try #require(original.range(of: Data("Lanternlight".utf8))).lowerBound
        let fd = open(directory.file(document), O_WRONLY)
        try #require(fd >= 0)
        #expect(pwrite(fd, "X", 1, off_t(offset)) == 1)
        close(fd)
        var times = [info.st_atim, info.st_mtim]
        try #require(utimensat(AT_FDCWD, directory.file(document), &times, 0) == 0)
        var edited = stat()
        try #require(stat(directory.file(document), &edited) == 0)
        try #require(edited.st_mtim.tv_sec == info.st_mtim.tv_sec && edited.st_mtim.tv_nsec == info.st_mtim.tv_nsec)
        try #require(edited.st_size == info.st_size)
        try #require(try directory.read(document) != original)

        // Read back, it is not the document the apps give: rewritten under the next revision, as a damaged one is
        // (with index.json, which lists the revision, and both .gz files).
        let report = writer.export(rosters, remembering: &memory)
        #expect(report.errors.isEmpty)
        #expect(report.filesRead == 1)
        #expect(report.written == 4)
        let repaired = try directory.read(document)
        #expect(repaired.range(of: Data("\"Lanternlight\"".utf8)) != nil)
        #expect(try parsed(repaired)["revision"] as? Int == 2)
    }

    @Test("rewrites a remembered .json.gz replaced by another file, and keeps its document")
    func replacedOutside() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        let rosters = [latest(Samples.us, now: Self.first)]
        var memory = ExportMemory(clock: clock)
        try settle(writer, rosters, &memory)
        let compressed = "v1/\(host)/us/macos.json.gz"
        let original = try directory.read(compressed)
        try directory.write(compressed + ".new", "not gzip")
        try #require(rename(directory.file(compressed + ".new"), directory.file(compressed)) == 0)

        let report = writer.export(rosters, remembering: &memory)
        #expect(report.errors.isEmpty)
        #expect(report.written == 1)
        #expect(try directory.read(compressed) == original)
    }

    @Test("a remembered document replaced by a symlink is rewritten as a file, never followed; a FIFO is left alone")
    func replacedBySymlinkAndFIFO() throws {
        let directory = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        let rosters = [latest(Samples.us, now: Self.first)]
        var memory = ExportMemory(clock: clock)
        try settle(writer, rosters, &memory)
        let document = "v1/\(host)/us/macos.json"
        let original = try directory.read(document)
        // The symlink points at a file outside the tree with the very bytes the document should have.
        try outside.write("target.json", String(decoding: original, as: UTF8.self))
        try #require(unlink(directory.file(document)) == 0)
        try #require(symlink(outside.file("target.json"), directory.file(document)) == 0)
        try #require(unlink(directory.file(document + ".gz")) == 0)
        try #require(mkfifo(directory.file(document + ".gz"), 0o600) == 0)

        // Against a hang on the FIFO: the pass runs on another thread and must end within 30 s.
        let pass = PassOnThread(writer, rosters, memory)
        try #require(pass.finished.wait(timeout: .now() + 30) == .success, "the pass hung on the FIFO")
        let report = try #require(pass.report)
        // SPEC §12: a FIFO at a document's name is reported and left alone; a symlink is replaced by the rename.
        #expect(report.errors.map(\.code) == [.unexpectedEntry], "\(report.errors)")
        #expect(report.errors.first?.path == directory.file(document + ".gz"))
        #expect(report.written == 1)
        var info = stat()
        #expect(lstat(directory.file(document), &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(lstat(directory.file(document + ".gz"), &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(try directory.read(document) == original)
        #expect(try outside.read("target.json") == original, "the symlink's target was written through")
    }

    @Test("a tagline change rewrites exactly the documents listing the app, without reading any file back")
    func taglineChange() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        var memory = ExportMemory(clock: clock)
        try settle(writer, [latest(Samples.us, now: Self.first), latest(Samples.de, now: Self.first)], &memory)
        let before = mtimes(directory)

        let report = writer.export(
            [latest(Samples.us, tagline: "New", now: Self.later), latest(Samples.de, tagline: "New", now: Self.later)],
            remembering: &memory)
        #expect(report.errors.isEmpty)
        #expect(report.filesRead == 0)
        let after = mtimes(directory)
        let rewritten = after.keys.filter { after[$0] != before[$0] }.sorted()
        #expect(
            rewritten == [
                "v1/\(host)/de/ios.json", "v1/\(host)/de/ios.json.gz", "v1/\(host)/us/ios.json",
                "v1/\(host)/us/ios.json.gz", "v1/index.json", "v1/index.json.gz",
            ])
        #expect(report.written == 6)
        // The revision came from memory: the next one after the document's, for the iOS documents only.
        for storefront in ["us", "de"] {
            #expect(try parsed(directory.read("v1/\(host)/\(storefront)/ios.json"))["revision"] as? Int == 2)
            #expect(try parsed(directory.read("v1/\(host)/\(storefront)/macos.json"))["revision"] as? Int == 1)
        }
        let inflated = try Tool.run("/bin/gzip", ["-dc", directory.file("v1/\(host)/de/ios.json.gz")])
        #expect(inflated.stdout == (try directory.read("v1/\(host)/de/ios.json")))
    }

    @Test("does not trust a memory of another directory")
    func otherDirectory() throws {
        let first = try TemporaryDirectory()
        let second = try TemporaryDirectory()
        let rosters = [latest(Samples.us, now: Self.first)]
        var memory = ExportMemory(clock: clock)
        try settle(ExportWriter(directory: first.path), rosters, &memory)
        _ = ExportWriter(directory: second.path).export(rosters)
        let report = ExportWriter(directory: second.path).export(rosters, remembering: &memory)
        #expect(report.filesRead == 6)
        #expect(report.written == 0)
    }
}
