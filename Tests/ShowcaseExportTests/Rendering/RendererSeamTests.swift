import Foundation
import ShowcaseCore
import ShowcaseExport
import Testing

/// The writer's renderers: files rendered beside each document and once per host follow the export's rules.
@Suite("Renderers beside each document")
struct RendererSeamTests {
    let host = Samples.host

    /// Lists the document's app names and its path, one per line; empty for an empty document.
    struct NameList: DocumentRenderer {
        var suffix = ".names"
        func render(_ document: ExportDocument, in context: RenderContext) -> [UInt8] {
            guard !document.apps.isEmpty else { return [] }
            let names = document.apps.map(\.resolved.app.name).joined(separator: "\n")
            return Array("\(context.documentPath) @ \(context.publicURL)\n\(names)\n".utf8)
        }
    }

    /// Writes the host app's id, once it is known.
    struct HostId: HostFileRenderer {
        var name = "host.txt"
        func render(_ roster: ExportRoster, in context: RenderContext) -> [UInt8]? {
            roster.hostAppId.map { Array("\($0) \(context.documentPath)".utf8) }
        }
    }

    func writer(_ directory: TemporaryDirectory) -> ExportWriter {
        ExportWriter(
            directory: directory.path, renderers: [NameList()], hostRenderers: [HostId()],
            publicURL: "https://example.com/v1/")
    }

    @Test("each document gets its rendered file and .gz beside it, listed in the manifest; each host its file")
    func beside() throws {
        let directory = try TemporaryDirectory()
        var roster = Samples.roster()
        roster.hostAppId = 1_641_000_100
        let report = writer(directory).export([roster])
        #expect(report.errors.isEmpty)
        let names = String(decoding: try directory.read("v1/\(host)/us/ios.names"), as: UTF8.self)
        #expect(names == "\(host)/us/ios.json @ https://example.com/v1/\nLanternlight\nWindrose\n")
        #expect(directory.exists("v1/\(host)/us/ios.names.gz"))
        #expect(
            String(decoding: try directory.read("v1/\(host)/host.txt"), as: UTF8.self) == "1641000100 \(host)/host.txt")
        let manifest = String(decoding: try directory.read("v1/.showcase-manifest"), as: UTF8.self)
        for path in ["\(host)/us/ios.names", "\(host)/us/macos.names.gz", "\(host)/host.txt"] {
            #expect(manifest.split(separator: "\n").contains(Substring(path)), "\(path) not in the manifest")
        }
        // index.json lists the JSON documents only.
        let index = try parsed(directory.read("v1/index.json"))
        let paths = (index["documents"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        #expect(!paths.isEmpty && paths.allSatisfy { $0.hasSuffix(".json") }, "\(paths)")
    }

    @Test("a rendered file is rewritten only when its bytes change, kept in a diagnostic, removed with its roster")
    func rules() throws {
        let directory = try TemporaryDirectory()
        _ = writer(directory).export([Samples.roster()])
        let path = "v1/\(host)/us/ios.names"
        try directory.age(path)
        let aged = try directory.modified(path)
        let again = writer(directory).export([Samples.roster()])
        #expect(again.written == 0, "nothing changed, so nothing is written")
        #expect(try directory.modified(path) == aged)

        let before = try directory.read(path)
        var failing = Samples.roster()
        failing.content = .keepLastGood(revision: 1)
        failing.state = .failed
        failing.error = "asked for us, answered for jp"
        _ = writer(directory).export([failing])
        #expect(try directory.read(path) == before, "a roster in a diagnostic keeps its rendered files")

        _ = writer(directory).export([])
        #expect(!directory.exists(path) && !directory.exists(path + ".gz"))
    }

    @Test("an empty document renders an empty file, not none")
    func empty() throws {
        let directory = try TemporaryDirectory()
        var roster = Samples.roster()
        roster.content = .current(revision: 1, revisedAt: Samples.revisedAt, apps: [:])
        _ = writer(directory).export([roster])
        #expect(try directory.read("v1/\(host)/us/ios.names").isEmpty)
    }

    @Test("a host file nothing can render yet is not written, and one written earlier is kept")
    func hostFileKept() throws {
        let directory = try TemporaryDirectory()
        _ = writer(directory).export([Samples.roster()])
        #expect(!directory.exists("v1/\(host)/host.txt"))
        var known = Samples.roster()
        known.hostAppId = 7
        _ = writer(directory).export([known])
        #expect(directory.exists("v1/\(host)/host.txt"))
        _ = writer(directory).export([Samples.roster()])
        #expect(String(decoding: try directory.read("v1/\(host)/host.txt"), as: UTF8.self).hasPrefix("7 "))
        _ = writer(directory).export([])
        #expect(!directory.exists("v1/\(host)/host.txt"), "removed with its host")
    }
}
