import Foundation
import Locking
import ShowcaseCore
import Testing

@testable import ShowcaseExport

/// The export pass's phases one at a time: the plan from the rosters and the memory alone (no disk), and the
/// reconcile of a plan with the tree, which decides every write, keep, refusal and removal before anything is done.
@Suite("Export phases: plan, reconcile")
struct ExportPhaseTests {
    let host = Samples.host

    /// Counts how often a deferred roster's apps were built.
    final class Builds: Sendable {
        let count = Lock(0)
    }

    /// The daemon's kind of roster in `storefront`: apps built on demand, counted in `builds`, with `fingerprint`.
    func deferred(_ storefront: Storefront, fingerprint: [Int], builds: Builds) -> ExportRoster {
        ExportRoster(
            host: host, storefront: storefront, state: .fresh, fetchedAt: Samples.fetchedAt,
            content: .deferred(now: Samples.revisedAt) {
                builds.count.withLock { $0 += 1 }
                return [.ios: [Samples.exported(Samples.lanternlight)], .macos: [Samples.exported(Samples.chartTable)]]
            },
            fingerprint: fingerprint)
    }

    /// A memory of `writer`'s tree whose last pass rendered each storefront's roster from fingerprint `[1]`: two
    /// documents and the file beside each. Built by hand: no pass ran, no file exists.
    func memory(of writer: ExportWriter, storefronts: [Storefront]) -> ExportMemory {
        var rendered: [String: ExportMemory.Rendered] = [:]
        for storefront in storefronts {
            var files: [String: ExportMemory.RenderedFile] = [:]
            for platform in ["ios", "macos"] {
                for suffix in [".json", ".names"] {
                    let bytes = Data("\(storefront.code) \(platform)\(suffix)".utf8)
                    files["\(host)/\(storefront.code)/\(platform)\(suffix)"] = ExportMemory.RenderedFile(
                        digest: ContentDigest(bytes), revision: suffix == ".json" ? 3 : nil)
                }
            }
            rendered["\(host)/\(storefront.code)"] = ExportMemory.Rendered(
                fingerprint: [1], settings: writer.settingsKey, files: files)
        }
        return ExportMemory(root: writer.root, files: [:], rendered: rendered, clock: WallClock())
    }

    @Test("with the memory of the last pass and the same inputs, the plan renders nothing and builds no apps")
    func unchangedMemoryPlansNothing() {
        let writer = ExportWriter(directory: "/nonexistent/showcase-plan", renderers: [RendererSeamTests.NameList()])
        let storefronts = [Samples.us, Samples.de, Samples.jp]
        let builds = Builds()
        let rosters = storefronts.map { deferred($0, fingerprint: [1], builds: builds) }

        let plan = writer.plan(rosters, memory: memory(of: writer, storefronts: storefronts))
        #expect(plan.rendering.isEmpty && plan.paths.isEmpty && plan.renderedCount == 0)
        #expect(plan.candidates.map(\.roster.storefront.code) == ["us", "de", "jp"])
        #expect(plan.candidates.flatMap(\.entries).map(\.revision) == Array(repeating: 3, count: 6))
        #expect(plan.errors.isEmpty)
        #expect(builds.count.withLock { $0 } == 0, "the plan built a roster's apps")
        // The same rosters without the memory: every one is rendered.
        #expect(writer.plan(rosters, memory: ExportMemory()).rendering.count == 3)
    }

    @Test("a roster whose inputs changed (a tagline) plans exactly its documents and the files beside them")
    func changedRosterPlansItsDocuments() {
        let writer = ExportWriter(directory: "/nonexistent/showcase-plan", renderers: [RendererSeamTests.NameList()])
        let storefronts = [Samples.us, Samples.de, Samples.jp]
        let builds = Builds()
        let rosters = storefronts.map {
            deferred($0, fingerprint: $0 == Samples.de ? [2] : [1], builds: builds)
        }

        let plan = writer.plan(rosters, memory: memory(of: writer, storefronts: storefronts))
        #expect(plan.rendering.map(\.key) == ["\(host)/de"])
        #expect(
            plan.paths == [
                "\(host)/de/ios.json", "\(host)/de/ios.names", "\(host)/de/macos.json", "\(host)/de/macos.names",
            ])
        #expect(plan.candidates.map(\.roster.storefront.code) == ["us", "jp"])
        #expect(plan.renderedCount == 1)
        #expect(builds.count.withLock { $0 } == 0, "the plan rendered: its bytes are rendered when reconciled")
    }

    @Test("a second roster exporting the same document is an error of the plan, and only the first is planned")
    func duplicateDocumentIsPlannedOnce() {
        let writer = ExportWriter(directory: "/nonexistent/showcase-plan")
        let plan = writer.plan([Samples.roster(), Samples.roster(tagline: "other")], memory: ExportMemory())
        #expect(plan.paths == ["\(host)/us/ios.json", "\(host)/us/macos.json"])
        #expect(plan.errors.map(\.code) == [.invalidDocument, .invalidDocument])
    }

    /// The operations `writer` reconciles `rosters` into against its tree as it is, and the files that are stale.
    func reconciled(_ writer: ExportWriter, _ rosters: [ExportRoster]) throws -> (ExportOperations, stale: [String]) {
        var report = ExportReport(directory: writer.directory)
        var snapshot = try #require(writer.snapshot(memory: ExportMemory(), into: &report))
        let plan = writer.plan(rosters, memory: ExportMemory())
        let operations = writer.reconcile(plan, available: [], snapshot: &snapshot)
        return (operations, writer.stale(plan, rendered: operations.files, reused: [:], snapshot: snapshot))
    }

    @Test("a foreign file at a wanted path is refused, and reconciling writes nothing")
    func foreignFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        try directory.write("v1/\(host)/us/ios.json", "{\"mine\": true}")
        let writer = ExportWriter(directory: directory.path)

        let (operations, stale) = try reconciled(writer, [Samples.roster()])
        #expect(operations.refused.map(\.code) == [.foreignFile])
        #expect(operations.refused.map(\.path) == [directory.file("v1/\(host)/us/ios.json")])
        #expect(
            operations.writes == ["\(host)/us/ios.json.gz", "\(host)/us/macos.json", "\(host)/us/macos.json.gz"])
        #expect(operations.keeps.isEmpty && stale.isEmpty)
        #expect(directory.files() == ["v1/\(host)/us/ios.json"], "reconciling wrote a file")
    }

    @Test("a listed file no roster wants any more is a removal; the wanted ones that hold their bytes are kept")
    func unwantedListedFileIsRemoved() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        try #require(writer.export([Samples.roster(), Samples.roster(storefront: Samples.de)]).succeeded)
        let before = directory.files()

        let (operations, stale) = try reconciled(writer, [Samples.roster()])
        #expect(
            stale == [
                "\(host)/de/ios.json", "\(host)/de/ios.json.gz", "\(host)/de/macos.json", "\(host)/de/macos.json.gz",
            ])
        #expect(operations.writes.isEmpty && operations.refused.isEmpty)
        #expect(operations.keeps.count == 4)
        #expect(directory.files() == before, "reconciling removed a file")
    }

    @Test("a changed tagline reconciles into writes of the documents that carry it, and keeps of the others")
    func changedTaglineWritesItsDocuments() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        try #require(writer.export([Samples.roster()]).succeeded)

        let (operations, stale) = try reconciled(writer, [Samples.roster(tagline: "Tides, kept")])
        #expect(operations.writes == ["\(host)/us/ios.json", "\(host)/us/ios.json.gz"])
        #expect(operations.keeps == ["\(host)/us/macos.json", "\(host)/us/macos.json.gz"])
        #expect(stale.isEmpty)
    }
}
