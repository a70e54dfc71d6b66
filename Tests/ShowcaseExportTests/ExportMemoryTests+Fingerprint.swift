import Foundation
import Locking
import ShowcaseCore
import ShowcaseExport
import Testing

/// A roster whose fingerprint is the one the last pass rendered, with every file as that pass left it, is not
/// rendered again: the twenty-developer export costs one developer's work when one changes.
extension ExportMemoryTests {
    /// Counts how often the writer asked for a deferred roster's apps.
    final class BuildCounter: Sendable {
        let count = Lock(0)
        var value: Int { count.withLock { $0 } }
    }

    /// The daemon's kind of roster: apps built on demand (each time calling `onBuild`), with `fingerprint`.
    func deferred(
        _ storefront: Storefront, fingerprint: [Int], tagline: String = "A night light that knows the tide",
        counter: BuildCounter, onBuild: @escaping @Sendable () -> Void = {}
    ) -> ExportRoster {
        let apps = latestApps(tagline: tagline)
        return ExportRoster(
            host: host, storefront: storefront, state: .fresh, fetchedAt: Samples.fetchedAt,
            content: .deferred(now: Self.first) {
                counter.count.withLock { $0 += 1 }
                onBuild()
                return apps
            },
            fingerprint: fingerprint)
    }

    func latestApps(tagline: String) -> [Platform: [ExportedApp]] {
        [
            .ios: [
                Samples.exported(Samples.lanternlight, tagline: .plain(tagline)), Samples.exported(Samples.windrose),
            ],
            .macos: [Samples.exported(Samples.chartTable)],
        ]
    }

    @Test("a roster with the fingerprint of the last pass is not built or rendered again, and its files stay")
    func sameFingerprintIsNotRendered() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path, renderers: [RendererSeamTests.NameList()])
        let counter = BuildCounter()
        var memory = ExportMemory(clock: clock)
        try settle(writer, [deferred(Samples.us, fingerprint: [1], counter: counter)], &memory)
        let builds = counter.value
        #expect(builds == 2, "both passes above rendered (the first wrote, the second settled what it wrote)")
        let before = mtimes(directory)

        let again = writer.export([deferred(Samples.us, fingerprint: [1], counter: counter)], remembering: &memory)
        #expect(again.errors.isEmpty)
        #expect(counter.value == builds, "the apps were built again")
        #expect(again.rostersReused == 1)
        #expect(again.written == 0 && again.filesRead == 0)
        #expect(mtimes(directory) == before)
        let index = try parsed(directory.read("v1/index.json"))
        #expect((index["documents"] as? [[String: Any]])?.count == 2, "index.json still lists both documents")

        // A new fingerprint renders, and the change reaches the files.
        let changed = writer.export(
            [deferred(Samples.us, fingerprint: [2], tagline: "Tides, lit", counter: counter)], remembering: &memory)
        #expect(counter.value == builds + 1)
        #expect(changed.rostersReused == 0)
        #expect(String(decoding: try directory.read("v1/\(host)/us/ios.json"), as: UTF8.self).contains("Tides, lit"))
    }

    @Test("a manifest edited since the last pass is read again: what it newly lists is removed, what it lost listed")
    func editedManifestIsReadAgain() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path, renderers: [RendererSeamTests.NameList()])
        let counter = BuildCounter()
        var memory = ExportMemory(clock: clock)
        try settle(writer, [deferred(Samples.us, fingerprint: [1], counter: counter)], &memory)
        let manifest = "v1/.showcase-manifest"
        let names = "\(host)/us/ios.names"
        let listed = String(decoding: try directory.read(manifest), as: UTF8.self)
        try #require(listed.contains(names + "\n"))

        // Someone lists a stray file as ours and drops a line: the remembered list no longer holds.
        try directory.write("v1/stray.json", "{}")
        try directory.write(
            manifest, listed.replacingOccurrences(of: names + "\n", with: "") + "stray.json\n")
        let report = writer.export([deferred(Samples.us, fingerprint: [1], counter: counter)], remembering: &memory)
        #expect(report.errors.isEmpty)
        #expect(report.rostersReused == 1)
        #expect(report.removed == 1, "the stray file the manifest now lists was not removed")
        #expect(!directory.files().contains("v1/stray.json"))
        let relisted = String(decoding: try directory.read(manifest), as: UTF8.self)
        #expect(relisted.contains(names + "\n"), "the reused roster's file was not listed again")
        #expect(!relisted.contains("stray.json"))
    }

    @Test("a remembered roster whose file was changed on disk, or a writer with other settings, renders again")
    func changedFileOrSettingsRender() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path, renderers: [RendererSeamTests.NameList()])
        let counter = BuildCounter()
        var memory = ExportMemory(clock: clock)
        try settle(writer, [deferred(Samples.us, fingerprint: [7], counter: counter)], &memory)
        let wanted = try directory.read("v1/\(host)/us/ios.names")

        try directory.write("v1/\(host)/us/ios.names", "defaced\n")
        let repaired = writer.export([deferred(Samples.us, fingerprint: [7], counter: counter)], remembering: &memory)
        #expect(repaired.rostersReused == 0)
        #expect(try directory.read("v1/\(host)/us/ios.names") == wanted, "the defaced file was put right")

        let moved = ExportWriter(
            directory: directory.path, renderers: [RendererSeamTests.NameList()], publicURL: "/elsewhere/v1/")
        let builds = counter.value
        let other = moved.export([deferred(Samples.us, fingerprint: [7], counter: counter)], remembering: &memory)
        #expect(other.rostersReused == 0 && counter.value == builds + 1)
        #expect(
            String(decoding: try directory.read("v1/\(host)/us/ios.names"), as: UTF8.self).contains("/elsewhere/v1/"))
    }

    @Test("a changed roster's files are published before an unchanged one's are checked, and one defaced renders then")
    func changedRostersArePublishedFirst() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path, renderers: [RendererSeamTests.NameList()])
        let counter = BuildCounter()
        var memory = ExportMemory(clock: clock)
        try settle(
            writer,
            [
                deferred(Samples.us, fingerprint: [1], counter: counter),
                deferred(Samples.de, fingerprint: [1], counter: counter),
            ], &memory)
        let wanted = try directory.read("v1/\(host)/de/ios.names")
        try directory.write("v1/\(host)/de/ios.names", "defaced\n")

        // de's inputs are unchanged, so its apps are built only once its defaced file is found: by then, us's
        // new tagline must be on disk already.
        let seenWhenBuilt = Lock<String?>(nil)
        let usDocument = directory.path + "/v1/\(host)/us/ios.json"
        let de = deferred(Samples.de, fingerprint: [1], counter: counter) {
            seenWhenBuilt.withLock { $0 = (try? String(contentsOfFile: usDocument, encoding: .utf8)) ?? "" }
        }
        let report = writer.export(
            [deferred(Samples.us, fingerprint: [2], tagline: "Tides, lit", counter: counter), de],
            remembering: &memory)
        #expect(report.errors.isEmpty)
        #expect(report.rostersRendered == 2 && report.rostersReused == 0)
        let seen = try #require(seenWhenBuilt.withLock { $0 }, "de was never rendered again")
        #expect(seen.contains("Tides, lit"), "de was rendered before us's changed document was published")
        #expect(try directory.read("v1/\(host)/de/ios.names") == wanted, "the defaced file was put right")
        let index = try parsed(directory.read("v1/index.json"))
        #expect((index["documents"] as? [[String: Any]])?.count == 4, "index.json lists both rosters' documents")

        // Once the files written are read back and trusted (the pass after), both are reused, nothing read.
        let rosters = [deferred(Samples.us, fingerprint: [2], tagline: "Tides, lit", counter: counter), de]
        clock.settleEverything()
        #expect(writer.export(rosters, remembering: &memory).written == 0)
        let next = writer.export(rosters, remembering: &memory)
        #expect(next.rostersReused == 2 && next.written == 0 && next.filesRead == 0)
    }

    @Test("a language that becomes its storefront's default is not reused at the paths it had")
    func defaultLanguageMoves() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        let counter = BuildCounter()
        func edition(_ language: String, isDefault: Bool, fingerprint: Int) -> ExportRoster {
            var roster = deferred(Samples.us, fingerprint: [fingerprint], tagline: language, counter: counter)
            roster.language = language
            roster.isDefaultLanguage = isDefault
            return roster
        }
        var memory = ExportMemory(clock: clock)
        try settle(
            writer, [edition("fr", isDefault: true, fingerprint: 1), edition("en", isDefault: false, fingerprint: 2)],
            &memory)
        #expect(try parsed(directory.read("v1/\(host)/us/ios.json"))["language"] as? String == "fr")

        // The languages are configured the other way round: the same inputs, but en's documents are now also the
        // storefront's own.
        let report = writer.export(
            [edition("fr", isDefault: false, fingerprint: 1), edition("en", isDefault: true, fingerprint: 2)],
            remembering: &memory)
        #expect(report.errors.isEmpty)
        #expect(try parsed(directory.read("v1/\(host)/us/ios.json"))["language"] as? String == "en")
        let index = try parsed(directory.read("v1/index.json"))
        let listed = (index["documents"] as? [[String: Any]])?.filter { $0["path"] as? String == "\(host)/us/ios.json" }
        #expect(listed?.count == 1 && listed?.first?["language"] as? String == "en")
    }

    @Test("a roster without a fingerprint is always rendered")
    func noFingerprintRenders() throws {
        let directory = try TemporaryDirectory()
        let writer = ExportWriter(directory: directory.path)
        var memory = ExportMemory(clock: clock)
        try settle(writer, [latest(Samples.us, now: Self.first)], &memory)
        #expect(writer.export([latest(Samples.us, now: Self.first)], remembering: &memory).rostersReused == 0)
    }
}
