import Foundation
import Locking
import ShowcaseConfig
import ShowcaseCore
import ShowcaseExport
import Testing

@testable import ShowcaseDaemon

/// The export's part of the state (``ExportBook``): each host's settings epoch, set by the reload that changes the
/// configuration, and the `Admin.Export` calls and what one pass hands the next, at exact instants.
extension DaemonStateTests {
    static let first = "com.example.First"
    static let second = "com.example.Second"

    /// Hosts `first` and `second` (with `tagline` for one app), with `attribution` and `artworkHosts`.
    static func exportConfiguration(
        hosts: [String] = [first, second], tagline: String? = nil, attribution: Attribution = Attribution(),
        artworkHosts: [URLPrefix] = [.appleArtwork]
    ) -> Configuration {
        var configuration = InProcessFixtures.configuration()
        configuration.hosts = hosts.map { HostConfiguration(bundleID: $0) }
        if let tagline, let index = configuration.hosts.firstIndex(where: { $0.bundleID == first }) {
            configuration.hosts[index].overlay = Overlay(taglines: [1_641_000_103: .plain(tagline)])
        }
        configuration.attribution = attribution
        configuration.lookup.artworkHosts = artworkHosts
        return configuration
    }

    /// `state` reloaded to `configuration` as its next generation, 10 s after the start.
    func reloaded(_ state: inout DaemonState, to configuration: Configuration) -> [String: Int] {
        _ = state.reload(
            to: Self.snapshot(configuration, generation: state.config.generation + 1), at: later(.seconds(10)),
            draw: { 0.5 })
        return state.exportBook.epochs
    }

    // MARK: Settings epochs

    @Test("the first state gives every configured host an epoch of its own")
    func everyHostHasAnEpoch() {
        let epochs = DaemonState(config: Self.snapshot(Self.exportConfiguration())).exportBook.epochs
        #expect(Set(epochs.keys) == [Self.first, Self.second])
        #expect(epochs[Self.first] != epochs[Self.second])
    }

    @Test("a reload changing one host's tagline gives that host a new epoch, and the other keeps its own")
    func taglineMovesOneEpoch() {
        var state = DaemonState(config: Self.snapshot(Self.exportConfiguration()))
        let before = state.exportBook.epochs
        let after = reloaded(&state, to: Self.exportConfiguration(tagline: "Tides, lit"))
        #expect(after[Self.second] == before[Self.second], "the other host's files need no rendering")
        #expect(after[Self.first] != before[Self.first])
        #expect(after[Self.first] != after[Self.second])
        let again = reloaded(&state, to: Self.exportConfiguration(tagline: "Tides, lit again"))
        #expect(again[Self.first] != after[Self.first], "every change is a new epoch")
        #expect(again[Self.first] != before[Self.first], "an epoch is never handed out twice")
    }

    @Test("a reload changing nothing that shapes the export keeps every epoch")
    func unchangedKeepsEpochs() {
        var state = DaemonState(config: Self.snapshot(Self.exportConfiguration(tagline: "Tides, lit")))
        let before = state.exportBook.epochs
        #expect(reloaded(&state, to: Self.exportConfiguration(tagline: "Tides, lit")) == before)
        var other = Self.exportConfiguration(tagline: "Tides, lit")
        other.refresh.interval = .seconds(3600)
        #expect(reloaded(&state, to: other) == before, "refresh.interval does not shape an exported app")
    }

    @Test("a reload changing the attribution or lookup.artwork_hosts gives every host a new epoch")
    func sharedSettingsMoveEveryEpoch() throws {
        var state = DaemonState(config: Self.snapshot(Self.exportConfiguration()))
        let before = state.exportBook.epochs
        let attributed = reloaded(
            &state, to: Self.exportConfiguration(attribution: Attribution(providerToken: "1234567")))
        #expect(attributed[Self.first] != before[Self.first] && attributed[Self.second] != before[Self.second])
        let icons = try URLPrefix(parsing: "https://icons.example.com/")
        let widened = reloaded(
            &state,
            to: Self.exportConfiguration(
                attribution: Attribution(providerToken: "1234567"), artworkHosts: [.appleArtwork, icons]))
        #expect(widened[Self.first] != attributed[Self.first] && widened[Self.second] != attributed[Self.second])
        #expect(Set(widened.values).count == 2)
    }

    @Test("a host a reload removes is forgotten, and one added back later gets a new epoch")
    func removedHostIsForgotten() {
        var state = DaemonState(config: Self.snapshot(Self.exportConfiguration()))
        let before = state.exportBook.epochs
        let removed = reloaded(&state, to: Self.exportConfiguration(hosts: [Self.first]))
        #expect(removed == [Self.first: before[Self.first]!])
        let back = reloaded(&state, to: Self.exportConfiguration())
        #expect(back[Self.first] == before[Self.first])
        #expect(back[Self.second] != nil && back[Self.second] != before[Self.second], "its old files may be stale")
    }

    // MARK: Passes and calls

    /// The report of a pass that wrote `written` files.
    static func report(_ written: Int) -> ExportReport {
        ExportReport(directory: "/in-process/export", written: written)
    }

    /// A pass that wrote `written` files, carrying an icon index that names one icon.
    func outcome(_ written: Int, at instant: Duration) -> ExportBook.Outcome {
        var index = IconIndex()
        index.record(
            IconKey(source: "https://is1-ssl.mzstatic.com/a/100x100bb.png", size: written),
            path: "icons/00000000000000aa.png")
        return ExportBook.Outcome(
            pass: ExportBook.Pass(report: Self.report(written), finishedAt: later(instant).date),
            carried: ExportBook.Carried(memory: ExportMemory(), icons: ("/in-process/state", index)))
    }

    @Test("the pass that ends answers the calls it started with, with its report, and carries its memory to the next")
    func callsAndPasses() async {
        let state = LockedBox(DaemonState(config: Self.snapshot(Self.exportConfiguration())))
        let at = { (seconds: Int) in self.later(.seconds(Int64(seconds))).instant }
        /// Calls at `instant` and waits (bounded against hangs) until the call is booked.
        func call(at instant: ContinuousClock.Instant) async -> Task<ExportReport?, Never> {
            let before = state.withLock { $0.exportSchedule.callCount }
            let task = Task {
                await withCheckedContinuation { continuation in
                    let change = state.withLock { $0.exportCalled(continuation, at: instant) }
                    #expect(change.exportScheduleChanged)
                }
            }
            for _ in 0..<2000 where state.withLock({ $0.exportSchedule.callCount }) == before {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return task
        }

        let one = await call(at: at(0))
        #expect(state.withLock { $0.exportSchedule.next(now: at(0)) } == .run)
        let (carried, started) = state.withLock { $0.exportStarted(at: at(1)) }
        #expect(started.exportScheduleChanged)
        #expect(carried.memory == nil && carried.icons == nil, "nothing to carry before the first pass")
        let two = await call(at: at(2))
        let ended = state.withLock { $0.exportEnded(outcome(2, at: .seconds(3)), at: at(3)) }
        #expect(ended.exportScheduleChanged)
        #expect(ended.exportReplies.map(\.report) == [Self.report(2)], "call two came during the pass")
        for reply in ended.exportReplies { reply.send() }
        #expect(await one.value == Self.report(2))
        #expect(state.withLock { $0.exportBook.last?.report } == Self.report(2))
        #expect(state.withLock { $0.exportBook.last?.finishedAt } == later(.seconds(3)).date)

        #expect(state.withLock { $0.exportSchedule.next(now: at(3)) } == .run, "call two does not wait")
        let (next, _) = state.withLock { $0.exportStarted(at: at(4)) }
        #expect(next.memory != nil)
        #expect(next.icons?.directory == "/in-process/state" && next.icons?.index.files.count == 1)
        // No export configured any more: the call gets nil, and the last pass stays the one that wrote.
        let empty = state.withLock { $0.exportEnded(nil, at: at(5)) }
        #expect(empty.exportReplies.count == 1 && empty.exportReplies.allSatisfy { $0.report == nil })
        for reply in empty.exportReplies { reply.send() }
        #expect(await two.value == nil)
        #expect(state.withLock { $0.exportBook.last?.report } == Self.report(2))
        #expect(state.withLock { $0.exportSchedule.callCount } == 0)
    }

    @Test("a one-shot run's icon check and pass, outside the schedule, are what the next pass starts from")
    func passesOutsideTheSchedule() {
        var state = DaemonState(config: Self.snapshot(Self.exportConfiguration()))
        var index = IconIndex()
        index.record(
            IconKey(source: "https://is1-ssl.mzstatic.com/b/100x100bb.png", size: 64),
            path: "icons/00000000000000bb.png")
        #expect(state.iconIndexChecked(index, in: "/in-process/state").exportReplies.isEmpty)
        #expect(state.exportBook.carried.icons?.index == index)
        _ = state.exportPassed(outcome(7, at: .seconds(1)))
        #expect(state.exportBook.last?.report == Self.report(7))
        #expect(state.exportBook.carried.icons?.index != index)
        #expect(state.exportSchedule.next(now: later(.seconds(2)).instant) == .idle, "the schedule never heard of it")
    }

    @Test("the icons a pass's writer asks for as it builds rosters are collected in the book and taken once")
    func askedIconsTakenOnce() {
        var state = DaemonState(config: Self.snapshot(Self.exportConfiguration()))
        func request(_ app: Int) -> IconFetcher.Request {
            IconFetcher.Request(
                key: IconKey(source: "https://is1-ssl.mzstatic.com/image/\(app)/512x512bb.jpg", size: 128), appId: app,
                round: nil)
        }
        #expect(!state.iconsAsked([request(1)]).exportScheduleChanged)
        _ = state.iconsAsked([request(2), request(3)])
        let (asked, change) = state.takeAskedIcons()
        #expect(asked.map(\.appId) == [1, 2, 3])
        #expect(change.export == nil && !change.exportScheduleChanged)
        #expect(state.takeAskedIcons().0.isEmpty, "the next pass starts with none")
    }
}
