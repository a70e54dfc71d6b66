import Foundation
import Locking
import ShowcaseConfig
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

/// The icon downloads as transitions of the daemon's state: each step is one call, with no fetcher, no task and no
/// clock, so what starts when is checked exactly (the fetcher only performs what these hand it).
@Suite("Icon book: two downloads at a time, one per key, a refusal retried only for a later round")
struct IconBookTests {
    let settings = IconFetcher.Settings(
        rules: URLRules(artworkHosts: [try! URLPrefix(parsing: "https://is1-ssl.mzstatic.com/")]), maxBytes: 1 << 20,
        timeout: .seconds(10))

    /// A state whose configuration exports (or not).
    func state(exporting: Bool = true) -> DaemonState {
        var configuration = InProcessFixtures.configuration()
        if exporting { configuration.export = ExportSettings(directory: "/in-process/export") }
        return DaemonState(config: DaemonStateTests.snapshot(configuration))
    }

    func request(_ app: Int, round: TimeInterval? = 1) -> IconFetcher.Request {
        IconFetcher.Request(
            key: IconKey(
                source: "https://is1-ssl.mzstatic.com/image/thumb/Purple211/v4/\(app)/AppIcon.png/512x512bb.jpg",
                size: 128),
            appId: app, round: round.map(Date.init(timeIntervalSince1970:)))
    }

    let icon = IconFetcher.Fetched(path: "icons/0123.png", bytes: Data([1, 2, 3]))

    @Test("a third icon wanted waits for a slot, and starts when a download ends")
    func thirdWaitsForASlot() throws {
        var state = state()
        let started = state.iconsWanted([request(1), request(2), request(3)], settings: settings).iconDownloads
        #expect(started.map(\.request.appId) == [1, 2])
        #expect(state.icons.pending.count == 3 && state.icons.running == 2 && state.icons.queue.count == 1)
        // Wanting more while both slots are taken starts nothing.
        #expect(state.iconsWanted([request(4)], settings: settings).iconDownloads.isEmpty)

        let next = state.iconDownloadEnded(try #require(started.first), .failed(.timeout)).iconDownloads
        #expect(next.map(\.request.appId) == [3])
        #expect(state.icons.running == 2 && state.icons.queue.map(\.request.appId) == [4])
        let third = try #require(next.first)
        #expect(state.iconDownloadEnded(third, .fetched(icon)).iconDownloads.map(\.request.appId) == [4])
        let last = state.iconDownloadEnded(try #require(started.last), .fetched(icon))
        #expect(last.iconDownloads.isEmpty)
        #expect(state.icons.running == 1 && state.icons.pending.count == 1)
    }

    @Test("a key is requested once while queued, running, or fetched and waiting for a pass, with its latest round")
    func oneRequestPerKey() throws {
        var state = state()
        let started = state.iconsWanted(
            [request(1, round: 1), request(1, round: 3), request(1, round: 2), request(2)], settings: settings
        ).iconDownloads
        #expect(started.map(\.request.appId) == [1, 2])
        let first = try #require(started.first)
        #expect(first.request.round == Date(timeIntervalSince1970: 3))
        // Running: not asked again, not even for a later round.
        #expect(state.iconsWanted([request(1, round: 9)], settings: settings).iconDownloads.isEmpty)
        #expect(state.icons.pending.count == 2 && state.icons.queue.isEmpty)

        _ = state.iconDownloadEnded(first, .fetched(icon))
        // Fetched and waiting for a pass: not asked again, even for a later round.
        #expect(state.iconsWanted([request(1, round: 9)], settings: settings).iconDownloads.isEmpty)
        #expect(state.icons.pending == [request(2).key])
        let (taken, change) = state.takeFetchedIcons()
        #expect(taken == [request(1).key: icon] && change.iconDownloads.isEmpty && change.export == nil)
        #expect(state.takeFetchedIcons().0.isEmpty)
        // Stored by the pass, done for round 3: asked again only for a later one.
        #expect(state.iconsWanted([request(1, round: 3)], settings: settings).iconDownloads.isEmpty)
        #expect(state.icons.outcome(of: request(1).key) == .fetched)
    }

    @Test("a refused or failed key is asked again only for a later round of its roster")
    func retriedOnlyForALaterRound() throws {
        var state = state()
        let refused = state.iconsWanted([request(1, round: 5)], settings: settings).iconDownloads
        #expect(state.icons.outcome(of: request(1).key) == nil)
        _ = state.iconDownloadEnded(try #require(refused.first), .refused(.notImage))
        #expect(state.icons.outcome(of: request(1).key) == .refused)
        for round: TimeInterval? in [5, 4, nil] {
            #expect(state.iconsWanted([request(1, round: round)], settings: settings).iconDownloads.isEmpty)
        }
        #expect(state.icons.pending.isEmpty)
        let again = state.iconsWanted([request(1, round: 6)], settings: settings).iconDownloads
        #expect(again.map(\.request.round) == [Date(timeIntervalSince1970: 6)])
        #expect(state.icons.outcome(of: request(1).key) == nil, "a key asked again is no longer done")

        _ = state.iconDownloadEnded(try #require(again.first), .failed(.httpStatus))
        #expect(state.icons.outcome(of: request(1).key) == .failed)
        #expect(state.iconsWanted([request(1, round: 6)], settings: settings).iconDownloads.isEmpty)
        #expect(state.icons.counters == .init(refused: 1, failed: 1, reasons: [.notImage: 1, .httpStatus: 1]))
    }

    @Test("an icon ready asks for an export like a roster change; a refusal or a daemon without export does not")
    func readyAsksForAnExport() throws {
        var state = state()
        let started = state.iconsWanted([request(1), request(2)], settings: settings)
        #expect(started.export == nil)
        try #require(started.iconDownloads.count == 2)
        #expect(state.iconDownloadEnded(started.iconDownloads[0], .fetched(icon)).export == .rosters)
        #expect(state.iconDownloadEnded(started.iconDownloads[1], .refused(.wrongSize)).export == nil)
        #expect(state.icons.counters == .init(ok: 1, refused: 1, reasons: [.wrongSize: 1]))

        var quiet = self.state(exporting: false)
        let download = try #require(quiet.iconsWanted([request(1)], settings: settings).iconDownloads.first)
        #expect(quiet.iconDownloadEnded(download, .fetched(icon)).export == nil)
    }

    @Test("settled() waiters are resumed when the last pending download ends, not before; at once when idle")
    func settledWhenTheLastEnds() async throws {
        var state = state()
        #expect(state.iconSettleTicket().0 == nil, "nothing pending: settled() returns at once")
        let started = state.iconsWanted([request(1), request(2), request(3)], settings: settings).iconDownloads
        try #require(started.count == 2)
        let ticket = try #require(state.iconSettleTicket().0, "no ticket with three icons pending")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            var resumed = state.waitForIcons(ticket, continuation, cancelled: false).iconsSettled
            #expect(resumed.isEmpty, "resumed with three icons pending")
            let third = state.iconDownloadEnded(started[0], .fetched(icon))
            resumed += third.iconsSettled
            resumed += state.iconDownloadEnded(started[1], .failed(.connection)).iconsSettled
            #expect(resumed.isEmpty, "resumed with one icon still running")
            #expect(third.iconDownloads.count == 1)
            for download in third.iconDownloads {
                let last = state.iconDownloadEnded(download, .refused(.tooLarge)).iconsSettled
                #expect(last.count == 1)
                resumed += last
            }
            // Never left hanging, whatever went wrong: the waiter is taken back and resumed.
            resumed += state.stopWaitingForIcons(ticket).iconsSettled
            #expect(resumed.count == 1)
            resumed.first?.resume()
        }
        #expect(state.icons.pending.isEmpty)
    }

    @Test("a cancelled settled() call is resumed at once, whether it came before or after it waited")
    func settledCancelled() async {
        var state = state()
        _ = state.iconsWanted([request(1)], settings: settings)
        let early = state.iconSettleTicket().0 ?? 0
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // The cancellation came first (its handler found nothing to take back): resumed, not kept.
            #expect(state.stopWaitingForIcons(early).iconsSettled.isEmpty)
            var resumed = state.waitForIcons(early, continuation, cancelled: true).iconsSettled
            #expect(resumed.count == 1)
            resumed += state.stopWaitingForIcons(early).iconsSettled
            resumed.first?.resume()
        }
        let late = state.iconSettleTicket().0 ?? 0
        #expect(late != early)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            var resumed = state.waitForIcons(late, continuation, cancelled: false).iconsSettled
            #expect(resumed.isEmpty)
            resumed += state.stopWaitingForIcons(late).iconsSettled
            #expect(resumed.count == 1)
            resumed.first?.resume()
        }
        #expect(state.icons.pending.count == 1)
    }

    @Test("the owner hands the downloads to start to its observer, and an icon ready reaches the export schedule")
    func ownerCarriesOut() throws {
        var configuration = InProcessFixtures.configuration()
        configuration.export = ExportSettings(directory: "/in-process/export")
        let owner = StateOwnerTests.owner(configuration)
        let handed = LockedBox<[[Int]]>([])
        owner.observe {
            $0.iconDownloads = { downloads in handed.withLock { $0.append(downloads.map(\.request.appId)) } }
        }
        let settings = self.settings
        let started = owner.update { state, _ in
            let change = state.iconsWanted([request(1), request(2), request(3)], settings: settings)
            return (change.iconDownloads, change)
        }
        #expect(handed.withLock { $0 } == [[1, 2]])
        let first = try #require(started.first)
        owner.update { state, _ in state.iconDownloadEnded(first, .fetched(icon)) }
        #expect(handed.withLock { $0 } == [[1, 2], [3]])
        #expect(owner.read { $0.exportSchedule.isPending }, "an icon ready did not reach the export schedule")
        #expect(owner.read { $0.icons.fetched.keys.map(\.self) } == [request(1).key])
    }
}
