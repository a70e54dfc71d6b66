import Foundation
import Locking
import ShowcaseCore
import ShowcaseExport
import Testing

/// The export tree is hostile ground (SPEC §12): whoever else can write inside it must not be able to make the
/// writer touch anything outside it, or hang it. Each test plants what an attacker would and checks the outside.
@Suite("Export writer on hostile ground")
struct HostileTreeTests {
    let host = Samples.host

    @Test("a storefront folder that is a symlink to a file outside is never chmodded, written or followed")
    func folderLinkToFile() throws {
        let directory = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try outside.write("secret", "root:x:0:0\n")
        try #require(chmod(outside.file("secret"), 0o600) == 0)
        try FileManager.default.createDirectory(atPath: directory.file("v1/\(host)"), withIntermediateDirectories: true)
        try #require(symlink(outside.file("secret"), directory.file("v1/\(host)/us")) == 0)

        let report = ExportWriter(directory: directory.path).export([Samples.roster(storefront: Samples.us)])
        #expect(try mode(outside.file("secret")) == 0o600, "the link's target was chmodded")
        #expect(try outside.read("secret") == Data("root:x:0:0\n".utf8))
        #expect(report.errors.contains { $0.code == .unexpectedEntry && $0.path.hasSuffix("\(host)/us") })
        #expect(report.written == 2, "index.json and its .gz are still written")
    }

    @Test("a folder swapped for a symlink while passes run never lends its mode to the file outside")
    func folderSwapRace() throws {
        let directory = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        try outside.write("secret", "s")
        try #require(chmod(outside.file("secret"), 0o600) == 0)
        let writer = ExportWriter(directory: directory.path)
        let folder = directory.file("v1/\(host)/us")
        let target = outside.file("secret")
        // The racer removes the storefront folder the pass makes and puts a link in its place, as fast as it can.
        let racer = Racer {
            if rmdir(folder) == 0 || unlink(folder) == 0 || errno == ENOENT {
                _ = symlink(target, folder)
                _ = unlink(folder)
            }
        }
        for _ in 0..<200 {
            _ = writer.export([Samples.roster(storefront: Samples.us)])
            _ = writer.export([])
        }
        racer.stop()
        #expect(try mode(target) == 0o600, "the link's target was chmodded")
    }

    @Test("storefront and host folders that are symlinks to folders outside are neither written nor emptied")
    func folderLinksToFolders() throws {
        let directory = try TemporaryDirectory()
        let outside = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        _ = writer.export([Samples.roster(storefront: Samples.us), Samples.roster(storefront: Samples.jp)])

        // us: replaced by a link to a folder of foreign documents before the next pass writes there.
        try plantFolder(outside, "us", replacing: directory.file("v1/\(host)/us"))
        // jp: the same, then the pass drops jp (a reload removed it): nothing may be removed through the link.
        try plantFolder(outside, "jp", replacing: directory.file("v1/\(host)/jp"))
        let report = writer.export([Samples.roster(storefront: Samples.us, tagline: "Changed")])
        let planted = ["ios.json", "macos.json", "notes.txt"]
        #expect(
            outside.files() == (planted.map { "jp/" + $0 } + planted.map { "us/" + $0 }),
            "files appeared in or vanished from the outside folders")
        for storefront in ["us", "jp"] { #expect(try outside.read("\(storefront)/ios.json") == Data("foreign".utf8)) }
        #expect(report.errors.contains { $0.code == .unexpectedEntry && $0.path.hasSuffix("\(host)/us") })
        #expect(report.errors.contains { $0.code == .unexpectedEntry && $0.path.hasSuffix("\(host)/jp") })

        // The host folder itself a link, and the host dropped: the outside folder and its files stay.
        try FileManager.default.removeItem(atPath: directory.file("v1/\(host)"))
        try #require(symlink(outside.path, directory.file("v1/\(host)")) == 0)
        let dropped = writer.export([])
        #expect(outside.files().count == 6)
        #expect(FileManager.default.fileExists(atPath: outside.file("us")))
        #expect(!dropped.errors.isEmpty)
    }

    @Test("a FIFO at a temporary name never blocks a pass, is reported and left alone")
    func fifoAtTemporaryName() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        _ = writer.export([Samples.roster(storefront: Samples.us)])
        let fifo = directory.file("v1/\(host)/us/.ios.json.showcase-tmp")
        try #require(mkfifo(fifo, 0o600) == 0)

        let pass = PassOnThread(
            writer, [Samples.roster(storefront: Samples.us, tagline: "Changed")], ExportMemory())
        try #require(pass.finished.wait(timeout: .now() + 30) == .success, "the pass hung on the FIFO")
        let report = try #require(pass.report)
        #expect(report.errors.contains { $0.code == .unexpectedEntry && $0.path == fifo })
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO was not left alone")
        #expect(try directory.read("v1/\(host)/us/ios.json.gz").count > 0)
    }

    @Test("a FIFO, a device-like entry or a folder at a document's name is reported and left alone")
    func fifoAtDocumentName() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        _ = writer.export([Samples.roster(storefront: Samples.us)])
        let document = directory.file("v1/\(host)/us/ios.json")
        try #require(unlink(document) == 0)
        try #require(mkfifo(document, 0o600) == 0)
        try #require(unlink(document + ".gz") == 0)
        try #require(mkdir(document + ".gz", 0o755) == 0)

        let pass = PassOnThread(writer, [Samples.roster(storefront: Samples.us)], ExportMemory())
        try #require(pass.finished.wait(timeout: .now() + 30) == .success, "the pass hung on the FIFO")
        let report = try #require(pass.report)
        var info = stat()
        #expect(lstat(document, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        #expect(lstat(document + ".gz", &info) == 0 && info.st_mode & S_IFMT == S_IFDIR)
        #expect(report.errors.contains { $0.code == .unexpectedEntry && $0.path == document })
        #expect(report.errors.contains { $0.code == .unexpectedEntry && $0.path == document + ".gz" })
        let index = try parsed(directory.read("v1/index.json"))
        let paths = (index["documents"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        #expect(!paths.contains("\(host)/us/ios.json"), "index.json lists a document that is a FIFO")
    }

    @Test("a hard link at a temporary name never truncates or writes the linked file")
    func hardLinkAtTemporaryName() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        _ = writer.export([Samples.roster(storefront: Samples.us)])
        // The linked file must be on the same file system: beside the tree, outside v1/.
        try directory.write("foreign.txt", "keep me")
        try #require(link(directory.file("foreign.txt"), directory.file("v1/\(host)/us/.ios.json.showcase-tmp")) == 0)

        let report = writer.export([Samples.roster(storefront: Samples.us, tagline: "Changed")])
        #expect(try directory.read("foreign.txt") == Data("keep me".utf8))
        #expect(report.errors.contains { $0.code == .unexpectedEntry })
    }

    @Test("a hard link at a document's name is replaced by the rename, never written through")
    func hardLinkAtDocumentName() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        _ = writer.export([Samples.roster(storefront: Samples.us)])
        let document = directory.file("v1/\(host)/us/ios.json")
        try directory.write("foreign.txt", "keep me")
        try #require(unlink(document) == 0)
        try #require(link(directory.file("foreign.txt"), document) == 0)

        let report = writer.export([Samples.roster(storefront: Samples.us)])
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(try directory.read("foreign.txt") == Data("keep me".utf8))
        var info = stat()
        #expect(lstat(document, &info) == 0 && info.st_nlink == 1)
    }

    @Test("index.json lists only documents that exist as the writer wrote or kept them")
    func honestIndex() throws {
        let directory = try TemporaryDirectory()
        // A foreign de/ios.json (not ours: left alone), and gb/ made unusable by a file where its folder belongs.
        try directory.write("v1/\(host)/de/ios.json", "foreign")
        try directory.write("v1/\(host)/gb", "not a folder")
        let gb = try Storefront(parsing: "gb")
        let report = ExportWriter(directory: directory.path).export([
            Samples.roster(storefront: Samples.us), Samples.roster(storefront: Samples.de),
            Samples.roster(storefront: gb),
        ])
        #expect(report.errors.contains { $0.code == .foreignFile })
        let index = try parsed(directory.read("v1/index.json"))
        let paths = (index["documents"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        for path in paths {
            var info = stat()
            #expect(lstat(directory.file("v1/" + path), &info) == 0, "index.json lists \(path), which does not exist")
        }
        #expect(!paths.contains("\(host)/de/ios.json"))
        #expect(paths.contains("\(host)/de/macos.json"))
        #expect(paths.contains("\(host)/us/ios.json"))
        #expect(try directory.read("v1/\(host)/de/ios.json") == Data("foreign".utf8))
    }

    /// Replaces the folder at `path` with a symlink to `outside/<name>`, a folder of foreign files with the
    /// names documents have.
    private func plantFolder(_ outside: TemporaryDirectory, _ name: String, replacing path: String) throws {
        try outside.write("\(name)/ios.json", "foreign")
        try outside.write("\(name)/macos.json", "foreign")
        try outside.write("\(name)/notes.txt", "foreign")
        try FileManager.default.removeItem(atPath: path)
        try #require(symlink(outside.file(name), path) == 0)
    }

    private func mode(_ path: String) throws -> mode_t {
        var info = stat()
        try #require(stat(path, &info) == 0)
        return info.st_mode & 0o7777
    }
}

/// Runs `body` on a thread of its own in a loop until ``stop()``.
final class Racer: @unchecked Sendable {
    private let running = Lock(true)
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        Thread { [self] in
            while running.withLock({ $0 }) { body() }
            done.signal()
        }.start()
    }

    func stop() {
        running.withLock { $0 = false }
        done.wait()
    }
}
