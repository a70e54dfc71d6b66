import DirectorySafety
import Foundation
import Testing

@Suite("Trusted directory")
struct TrustedDirectoryTests {
    @Test("a subdirectory that is a symlink is refused as unexpected, and its target's mode never changes")
    func subdirectoryLink() throws {
        let scratch = try Scratch()
        try scratch.file("secret", "s", mode: 0o600)
        try #require(symlink(scratch.path("secret"), scratch.path("tree/file-link")) == 0)
        try #require(mkdir(scratch.path("elsewhere"), 0o700) == 0)
        try #require(symlink(scratch.path("elsewhere"), scratch.path("tree/folder-link")) == 0)
        let tree = try TrustedDirectory.open(scratch.path("tree"))
        for name in ["file-link", "folder-link"] {
            #expect {
                _ = try tree.subdirectory(name, creating: 0o755)
            } throws: { error in
                (error as? DirectoryError)?.code == .unexpected(.symbolicLink)
            }
        }
        #expect(try scratch.mode("secret") == 0o600)
        #expect(try scratch.mode("elsewhere") == 0o700)
    }

    @Test("a subdirectory it makes gets the asked mode, set on its descriptor")
    func madeMode() throws {
        let scratch = try Scratch()
        let tree = try TrustedDirectory.open(scratch.path("tree"))
        let made = try tree.subdirectory("us", creating: 0o755)
        #expect(try scratch.mode("tree/us") == 0o755)
        #expect(made.path == scratch.path("tree/us"))
        #expect(throws: DirectoryError.self) { try tree.subdirectory("missing") }
    }

    @Test("reading a FIFO, a symlink or a directory is refused at once; a regular file is read within its limit")
    func reads() throws {
        let scratch = try Scratch()
        try #require(mkfifo(scratch.path("tree/fifo"), 0o600) == 0)
        try scratch.file("outside", "outside")
        try #require(symlink(scratch.path("outside"), scratch.path("tree/link")) == 0)
        try scratch.file("tree/file", "twelve bytes")
        let tree = try TrustedDirectory.open(scratch.path("tree"))
        let started = ContinuousClock.now
        #expect(tree.read("fifo", limit: 100).failure?.code == .unexpected(.fifo))
        #expect(ContinuousClock.now - started < .seconds(5), "the read waited on the FIFO")
        #expect(tree.read("link", limit: 100).failure?.code == .unexpected(.symbolicLink))
        #expect(tree.read("absent", limit: 100).failure?.code == .missing)
        #expect(tree.read("file", limit: 11).failure?.code == .tooLarge)
        #expect(try tree.read("file", limit: 12).get().bytes == Data("twelve bytes".utf8))
    }

    @Test("create never opens what is already there: a hard link, a FIFO or a symlink stays as it was")
    func exclusiveCreate() throws {
        let scratch = try Scratch()
        try scratch.file("tree/../foreign", "keep me")
        try #require(link(scratch.path("foreign"), scratch.path("tree/hard")) == 0)
        try #require(mkfifo(scratch.path("tree/fifo"), 0o600) == 0)
        try #require(symlink(scratch.path("foreign"), scratch.path("tree/soft")) == 0)
        let tree = try TrustedDirectory.open(scratch.path("tree"))
        for name in ["hard", "fifo", "soft"] {
            #expect(tree.create(name, bytes: Data("overwritten".utf8))?.code == .exists, "\(name)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("foreign"))) == Data("keep me".utf8))
        #expect(tree.create("new", bytes: Data("new".utf8), mode: 0o644) == nil)
        #expect(try scratch.mode("tree/new") == 0o644)
        #expect(tree.entry("hard")?.links == 2)
        #expect(tree.entry("new")?.isOwnSingleFile == true)
        #expect(tree.entry("hard")?.isOwnSingleFile == false)
    }

    @Test("create and open leave the mode to the umask when asked, as a private cache under UMask=0077 needs")
    func umaskApplies() throws {
        let scratch = try Scratch()
        // The process's umask, read without changing it (other tests run in parallel).
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        let mask = try #require(mode_t(line.split(separator: "\t").last.map(String.init) ?? "", radix: 8))
        let made = try TrustedDirectory.open(scratch.path("cache"), creating: 0o777, applyingUmask: true)
        #expect(try scratch.mode("cache") == 0o777 & ~mask)
        #expect(made.create("roster", bytes: Data("x".utf8), mode: 0o666, applyingUmask: true) == nil)
        #expect(try scratch.mode("cache/roster") == 0o666 & ~mask)
        #expect(made.create("exact", bytes: Data("x".utf8), mode: 0o666) == nil)
        #expect(try scratch.mode("cache/exact") == 0o666)
    }

    @Test("rename replaces a symlink as a name and removeFile removes a link, never what it points to")
    func renameAndRemove() throws {
        let scratch = try Scratch()
        try scratch.file("outside", "outside")
        try #require(symlink(scratch.path("outside"), scratch.path("tree/document")) == 0)
        try #require(symlink(scratch.path("outside"), scratch.path("tree/stale")) == 0)
        try #require(mkdir(scratch.path("elsewhere"), 0o755) == 0)
        try #require(symlink(scratch.path("elsewhere"), scratch.path("tree/folder")) == 0)
        let tree = try TrustedDirectory.open(scratch.path("tree"))
        #expect(tree.create(".document.tmp", bytes: Data("ours".utf8)) == nil)
        #expect(tree.rename(".document.tmp", to: "document") == nil)
        #expect(tree.entry("document")?.kind == .regular)
        #expect(tree.removeFile("stale") == nil)
        #expect(tree.entry("stale") == nil)
        #expect(!tree.removeEmptyDirectory("folder"), "an empty directory's link was removed as a directory")
        try #require(mkdir(scratch.path("tree/real"), 0o755) == 0)
        #expect(tree.removeFile("real")?.code == .unexpected(.directory))
        #expect(tree.removeEmptyDirectory("real"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("outside"))) == Data("outside".utf8))
        #expect(FileManager.default.fileExists(atPath: scratch.path("elsewhere")))
    }

    @Test("a name with a slash, '.' or '..' is refused")
    func singleNames() throws {
        let scratch = try Scratch()
        let tree = try TrustedDirectory.open(scratch.path("tree"))
        for name in ["..", ".", "a/b", ""] {
            #expect(throws: DirectoryError.self, "\(name)") { try tree.subdirectory(name, creating: 0o755) }
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("b")))
    }

    @Test("open makes a missing configured directory and its parents, widening the last one it made")
    func openCreating() throws {
        let scratch = try Scratch()
        let made = try TrustedDirectory.open(scratch.path("a/b/c"), creating: 0o755)
        #expect(made.path == scratch.path("a/b/c"))
        #expect(try scratch.mode("a/b/c") == 0o755)
        try scratch.file("plain", "x")
        #expect(throws: DirectoryError.self) { try TrustedDirectory.open(scratch.path("plain"), creating: 0o755) }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// A fresh directory with a `tree/` inside, removed afterwards.
private final class Scratch {
    let root = NSTemporaryDirectory() + "showcase-trusted-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: root + "/tree", withIntermediateDirectories: true)
    }

    func path(_ relative: String) -> String { root + "/" + relative }

    func file(_ relative: String, _ contents: String, mode: mode_t = 0o644) throws {
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path(relative)))
        try #require(chmod(path(relative), mode) == 0)
    }

    func mode(_ relative: String) throws -> mode_t {
        var info = stat()
        try #require(lstat(path(relative), &info) == 0)
        return info.st_mode & 0o7777
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}
