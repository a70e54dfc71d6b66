import FoundationEssentials
import ShowcaseCore

/// The icon downloads (SPEC §16) as a part of ``DaemonState``: which icons are queued, running, fetched and
/// waiting for a pass, or done for a round of their roster, the requests counted by result, and the
/// ``IconFetcher/settled()`` calls waiting for the queue to empty.
///
/// It decides; the ``IconFetcher`` only performs the downloads it is handed. Its rules:
/// - **At most ``IconFetcher/maximumConcurrent`` downloads at a time**: ``want(_:settings:)`` and ``ended(_:_:)``
///   hand back the downloads to start now, the others wait in the queue.
/// - **At most one request per ``IconKey``** while it is queued, running, or fetched and waiting for a pass —
///   however many documents, storefronts and hosts need it.
/// - **A key done (fetched, refused or failed) is asked for again only for a later round** of its roster (a newer
///   fetch), so an icon refused, or a file that cannot be stored, is never fetched in a loop.
struct IconBook: Sendable {
    /// One icon to download now, under the settings of the pass that asked for it.
    struct Download: Sendable {
        var request: IconFetcher.Request
        var settings: IconFetcher.Settings
    }

    /// How a download ended.
    enum End: Sendable {
        /// Downloaded and checked: stored by the next pass.
        case fetched(IconFetcher.Fetched)
        /// The URL, the answer or the image broke a rule.
        case refused(IconFailureReason)
        /// The transfer did not complete.
        case failed(IconFailureReason)
    }

    /// Downloads asked for and not started yet, in the order asked.
    private(set) var queue: [Download] = []
    /// Keys queued or running.
    private(set) var pending = Set<IconKey>()
    /// Downloads running now.
    private(set) var running = 0
    /// Icons downloaded and checked, waiting for a pass to store them (``takeFetched()``).
    private(set) var fetched: [IconKey: IconFetcher.Fetched] = [:]
    /// Keys fetched, refused or failed, with the round (roster fetch) they were asked for in and how they ended.
    private var done: [IconKey: (round: Date?, outcome: IconFetcher.Outcome)] = [:]
    /// Requests by result, since the daemon started.
    private(set) var counters = IconFetcher.Counters()
    /// ``IconFetcher/settled()`` calls waiting for the queue to empty, by ticket.
    private var settleWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var lastTicket = 0

    /// How `key`'s last request ended; nil when it was never asked for, or is queued or running now.
    func outcome(of key: IconKey) -> IconFetcher.Outcome? { done[key]?.outcome }

    /// Queues every request not already queued, running, waiting to be stored, or done for the same or a later
    /// round of its roster. Requests for one key from several rosters count once, with the latest round among
    /// them. Returns the downloads to start now.
    mutating func want(_ requests: [IconFetcher.Request], settings: IconFetcher.Settings) -> [Download] {
        var latest: [IconKey: IconFetcher.Request] = [:]
        var order: [IconKey] = []
        for request in requests {
            if let seen = latest[request.key] {
                if let round = request.round, seen.round.map({ round > $0 }) ?? true { latest[request.key] = request }
            } else {
                latest[request.key] = request
                order.append(request.key)
            }
        }
        for key in order where !pending.contains(key) && fetched[key] == nil {
            let request = latest[key]!
            if let done = done[key] {
                guard let round = request.round, let doneRound = done.round, round > doneRound else { continue }
                self.done[key] = nil
            }
            pending.insert(key)
            queue.append(Download(request: request, settings: settings))
        }
        return startable()
    }

    /// `download` ended with `end`: recorded and counted. Returns the downloads to start now in its place, and the
    /// ``IconFetcher/settled()`` calls to resume when nothing is pending any more.
    mutating func ended(_ download: Download, _ end: End) -> (
        start: [Download], settled: [CheckedContinuation<Void, Never>]
    ) {
        let key = download.request.key
        pending.remove(key)
        running -= 1
        switch end {
        case .fetched(let icon):
            fetched[key] = icon
            done[key] = (download.request.round, .fetched)
            counters.ok += 1
        case .refused(let reason):
            done[key] = (download.request.round, .refused)
            counters.refused += 1
            counters.reasons[reason, default: 0] += 1
        case .failed(let reason):
            done[key] = (download.request.round, .failed)
            counters.failed += 1
            counters.reasons[reason, default: 0] += 1
        }
        let start = startable()
        guard pending.isEmpty else { return (start, []) }
        defer { settleWaiters = [:] }
        return (start, Array(settleWaiters.values))
    }

    /// The icons downloaded since the last call, by key; the book forgets them (a pass that cannot store one
    /// leaves its index entry missing, and the next pass asks again).
    mutating func takeFetched() -> [IconKey: IconFetcher.Fetched] {
        defer { fetched = [:] }
        return fetched
    }

    /// A ticket for a ``IconFetcher/settled()`` call; nil when nothing is pending (it returns at once).
    mutating func settleTicket() -> Int? {
        guard !pending.isEmpty else { return nil }
        lastTicket &+= 1
        return lastTicket
    }

    /// Keeps `continuation` under `ticket` until nothing is pending. Returns it instead, to resume at once, when
    /// nothing is pending now or its call is `cancelled` (the cancellation came before it could be kept).
    mutating func wait(_ ticket: Int, _ continuation: CheckedContinuation<Void, Never>, cancelled: Bool)
        -> CheckedContinuation<Void, Never>?
    {
        if pending.isEmpty || cancelled { return continuation }
        settleWaiters[ticket] = continuation
        return nil
    }

    /// The call holding `ticket` was cancelled: its continuation, if kept, to resume now.
    mutating func stopWaiting(_ ticket: Int) -> CheckedContinuation<Void, Never>? {
        settleWaiters.removeValue(forKey: ticket)
    }

    /// Takes the queued downloads a free slot allows off the queue, as running.
    private mutating func startable() -> [Download] {
        let count = max(0, min(IconFetcher.maximumConcurrent - running, queue.count))
        running += count
        defer { queue.removeFirst(count) }
        return Array(queue.prefix(count))
    }
}
