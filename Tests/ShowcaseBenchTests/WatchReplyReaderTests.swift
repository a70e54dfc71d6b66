import Testing

@testable import showcase_bench

@Suite("Watch fan-out: reading replies")
struct WatchReplyReaderTests {
    /// A Watch reply as the daemon encodes it: keys sorted, so `revision` comes after the whole `apps` array.
    private static func reply(revision: Int, apps: Int = 30) -> [UInt8] {
        let app = #"{"bundleId":"com.example.App","name":"An \"app\" named revision","tagline":"\"revision\":7"}"#
        let list = Array(repeating: app, count: apps).joined(separator: ",")
        let text =
            #"{"continues":true,"parameters":{"apps":[\#(list)],"revision":\#(revision),"#
            + #""state":"fresh","storefront":"us"}}"#
        return Array(text.utf8) + [0]
    }

    private func revisions(_ chunks: [[UInt8]], into reader: inout WatchReplyReader) -> [Int?] {
        var seen: [Int?] = []
        for chunk in chunks {
            chunk.withUnsafeBufferPointer { reader.read($0) { seen.append($0) } }
        }
        return seen
    }

    @Test("reads the revision that follows a long apps array, not a look-alike inside a string")
    func revisionAfterTheApps() {
        var reader = WatchReplyReader()
        #expect(revisions([Self.reply(revision: 42)], into: &reader) == [42])
        #expect(reader.pending.isEmpty)
    }

    @Test("a reply split at any byte is read once, whole, with its revision")
    func splitAtEveryByte() {
        let stream = Self.reply(revision: 1, apps: 2) + Self.reply(revision: 2, apps: 2)
        for cut in 1..<stream.count {
            var reader = WatchReplyReader()
            let seen = revisions([Array(stream[..<cut]), Array(stream[cut...])], into: &reader)
            #expect(seen == [1, 2], "cut at \(cut)")
            #expect(reader.pending.isEmpty, "cut at \(cut)")
        }
    }

    @Test("several replies in one read come out in order; a trailing partial one waits for its NUL")
    func severalInOneRead() {
        var reader = WatchReplyReader()
        let partial = Self.reply(revision: 4)
        let chunk = Self.reply(revision: 2) + Self.reply(revision: 3) + partial.prefix(100)
        #expect(revisions([chunk], into: &reader) == [2, 3])
        #expect(reader.pending.count == 100)
        #expect(revisions([Array(partial.dropFirst(100))], into: &reader) == [4])
    }

    @Test("an error reply has no revision")
    func errorReply() {
        var reader = WatchReplyReader()
        let error = Array(#"{"error":"io.showcase.Unavailable","parameters":{"storefront":"us"}}"#.utf8) + [0]
        #expect(revisions([error], into: &reader) == [nil])
    }
}
