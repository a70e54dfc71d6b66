import Foundation
import Testing

@testable import ShowcaseDaemon

/// The icon index survives restarts as text: what it records it reads back, and a damaged line costs a refetch,
/// never a wrong path.
@Suite("Icon index: (source URL, size) → icon path, in state.directory")
struct IconIndexTests {
    static let source = "https://is1-ssl.mzstatic.com/image/thumb/a/AppIcon.png/512x512bb.jpg"

    @Test("records, encodes sorted, and reads back the same index; forgets missing paths")
    func roundTrip() throws {
        var index = IconIndex()
        index.record(IconKey(source: Self.source, size: 256), path: "icons/00000000000000bb.png")
        index.record(IconKey(source: Self.source, size: 128), path: "icons/00000000000000aa.jpg")
        let text = index.encoded()
        #expect(text.split(separator: "\n").dropFirst().first?.hasPrefix("128 icons/00000000000000aa.jpg ") == true)
        #expect(IconIndex(parsing: text) == index)
        index.forget(paths: ["icons/00000000000000bb.png"])
        #expect(index[IconKey(source: Self.source, size: 256)] == nil)
        #expect(index[IconKey(source: Self.source, size: 128)] == "icons/00000000000000aa.jpg")
    }

    @Test("drops lines that do not parse or name anything but an icon path")
    func hostileLines() {
        let text = """
            128 ../../etc/passwd \(Self.source)
            128 icons/00000000000000aa.gif \(Self.source)
            nope icons/00000000000000aa.png \(Self.source)
            99999 icons/00000000000000aa.png \(Self.source)
            128 icons/00000000000000aa.png
            256 icons/00000000000000cc.webp \(Self.source)
            """
        let index = IconIndex(parsing: text)
        #expect(index.paths == [IconKey(source: Self.source, size: 256): "icons/00000000000000cc.webp"])
    }

    @Test("is saved atomically in state.directory and loaded again; a missing file is an empty index")
    func file() throws {
        let directory = NSTemporaryDirectory() + "icon-index-\(UUID().uuidString)/state"
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        let file = IconIndexFile(directory: directory)
        #expect(file.load().index == IconIndex())
        #expect(file.load().problem == nil)
        var index = IconIndex()
        index.record(IconKey(source: Self.source, size: 128), path: "icons/00000000000000aa.jpg")
        #expect(file.save(index) == nil)
        #expect(file.load().index == index)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(names == ["icons.index"], "a temporary file was left behind")
    }
}
