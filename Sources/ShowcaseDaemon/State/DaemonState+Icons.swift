import FoundationEssentials
import ShowcaseCore

/// The icon downloads' transitions (``IconBook``): each returns the downloads to start now
/// (``StateChange/iconDownloads``, handed to the ``IconFetcher``) and the ``IconFetcher/settled()`` calls to resume
/// (``StateChange/iconsSettled``); an icon ready asks for an export, like a roster change.
extension DaemonState {
    /// An export pass wants `requests` under `settings` (``IconBook/want(_:settings:)``).
    mutating func iconsWanted(_ requests: [IconFetcher.Request], settings: IconFetcher.Settings) -> StateChange {
        StateChange(iconDownloads: icons.want(requests, settings: settings))
    }

    /// `download` ended with `end`: the next queued downloads start in its place, the ``IconFetcher/settled()``
    /// calls are resumed when it was the last one pending, and an icon ready triggers the next pass (after the
    /// debounce, like a roster change), which stores and lists it.
    mutating func iconDownloadEnded(_ download: IconBook.Download, _ end: IconBook.End) -> StateChange {
        let (start, settled) = icons.ended(download, end)
        var change = StateChange(iconDownloads: start, iconsSettled: settled)
        if case .fetched = end, config.configuration.export != nil { change.export = .rosters }
        return change
    }

    /// A pass takes the icons downloaded since the last one (``IconBook/takeFetched()``).
    mutating func takeFetchedIcons() -> ([IconKey: IconFetcher.Fetched], StateChange) {
        (icons.takeFetched(), .none)
    }

    /// A ``IconFetcher/settled()`` call starts: its ticket, nil when nothing is pending.
    mutating func iconSettleTicket() -> (Int?, StateChange) { (icons.settleTicket(), .none) }

    /// The ``IconFetcher/settled()`` call holding `ticket` waits with `continuation`, resumed at once when nothing is
    /// pending now or the call was `cancelled`.
    mutating func waitForIcons(_ ticket: Int, _ continuation: CheckedContinuation<Void, Never>, cancelled: Bool)
        -> StateChange
    {
        StateChange(iconsSettled: icons.wait(ticket, continuation, cancelled: cancelled).map { [$0] } ?? [])
    }

    /// The ``IconFetcher/settled()`` call holding `ticket` was cancelled: it returns now.
    mutating func stopWaitingForIcons(_ ticket: Int) -> StateChange {
        StateChange(iconsSettled: icons.stopWaiting(ticket).map { [$0] } ?? [])
    }
}
