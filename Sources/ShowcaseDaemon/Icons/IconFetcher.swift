import FoundationEssentials
import Locking
import ShowcaseCore

/// The daemon's second fetcher, for images only (SPEC §16): a careful client of Apple's image CDN that never
/// holds back the JSON export.
///
/// Export passes ask for what their documents lack (``want(_:settings:)``) and go on writing without it; the
/// fetcher downloads in the background and calls `fetched` when an icon is ready, so the next pass adds it
/// (``takeFetched()``). Its rules:
///
/// - **Only `lookup.artwork_hosts`**, checked again here on the sized URL whatever the roster's decoder let through
///   (an upstream naming `http://169.254.169.254/` gets nothing fetched), GET only, no redirect followed, at most
///   `export.icons.max_bytes` while streaming, the whole download within `lookup.timeout` (``CurlImageTransport``).
/// - **At most ``maximumConcurrent`` at a time, at most one request per ``IconKey``** while it is queued, running,
///   or fetched and waiting for a pass — however many documents, storefronts and hosts need it.
/// - The body must be PNG, JPEG or WebP by its magic bytes, of the size asked for (``ImageHeader``); anything else
///   is refused, logged with the app id, counted, and asked for again only for a newer fetch of the roster that
///   lists it (its next refresh), never in a loop.
/// - Never the lookup API's rate limiter: that budget is the lookup endpoint's.
///
/// Counted in ``counters`` (`showcase_icon_requests_total{result="ok|refused|failed"}`).
final class IconFetcher: Sendable {
    /// What the current configuration allows.
    struct Settings: Sendable {
        /// `lookup.artwork_hosts`.
        var rules: URLRules
        /// `export.icons.max_bytes`.
        var maxBytes: Int
        /// `lookup.timeout`: for each whole download.
        var timeout: Duration
    }

    /// One icon an export pass wants.
    struct Request: Sendable {
        var key: IconKey
        /// The app it is for (for the log).
        var appId: Int
        /// When the roster that lists it was fetched: a refusal is retried only for a later one.
        var round: Date?
    }

    /// An icon downloaded and checked, waiting for an export pass to store it.
    struct Fetched: Sendable, Equatable {
        /// `icons/<digest>.<ext>`, from its bytes.
        var path: String
        var bytes: Data
    }

    /// Requests by result, since the daemon started.
    struct Counters: Sendable, Equatable {
        var ok = 0
        var refused = 0
        var failed = 0
        /// Refused and failed downloads by why (`showcase_icon_failures_total{reason}`).
        var reasons: [IconFailureReason: Int] = [:]
    }

    /// How the last request for a key ended.
    enum Outcome: Sendable, Equatable {
        /// Downloaded and checked: stored by the next pass.
        case fetched
        /// The URL, the answer or the image broke a rule (not an allowed host, a redirect, too large, not an
        /// image, the wrong size).
        case refused
        /// The transfer did not complete (a timeout, a refused connection, an HTTP error).
        case failed
    }

    private struct State {
        var queue: [(Request, Settings)] = []
        /// Keys queued or being fetched.
        var pending = Set<IconKey>()
        var running = 0
        var fetched: [IconKey: Fetched] = [:]
        /// Keys fetched, refused or failed, with the round (roster fetch) they were asked for in and how they
        /// ended: asked for again only for a later round, so a file that cannot be stored, or an icon refused, is
        /// never fetched in a loop.
        var done: [IconKey: (round: Date?, outcome: Outcome)] = [:]
        var counters = Counters()
        /// ``settled()`` calls waiting for the queue to empty, by ticket.
        var settleWaiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var lastTicket = 0
    }

    /// Downloads at a time (SPEC §16).
    static let maximumConcurrent = 2

    private let transport: any ImageTransport
    private let log: DaemonLog
    private let fetchedHandler: @Sendable () -> Void
    private let state = Lock(State())

    /// A fetcher over `transport`, logging to `log`, calling `fetched` after each icon that is ready to store.
    init(transport: any ImageTransport, log: DaemonLog, fetched: @escaping @Sendable () -> Void = {}) {
        self.transport = transport
        self.log = log
        self.fetchedHandler = fetched
    }

    /// The counters as of now.
    var counters: Counters { state.withLock { $0.counters } }

    /// Keys queued or running now.
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// How `key`'s last request ended; nil when it was never asked for, or is queued or running now.
    func outcome(of key: IconKey) -> Outcome? { state.withLock { $0.done[key]?.outcome } }

    /// Returns once nothing is queued or running (at once when nothing is), or when the calling task is cancelled:
    /// a one-shot run waits here, bounded by `--max-wait`, for the icons it asked for before it writes the
    /// documents that reference them.
    func settled() async {
        let ticket = state.withLock { state -> Int? in
            guard !state.pending.isEmpty else { return nil }
            state.lastTicket &+= 1
            return state.lastTicket
        }
        guard let ticket else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Checked under the lock the cancellation handler takes too, so a cancellation is never missed.
                let now = state.withLock { state -> Bool in
                    if state.pending.isEmpty || Task.isCancelled { return true }
                    state.settleWaiters[ticket] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.settleWaiters.removeValue(forKey: ticket) }?.resume()
        }
    }

    /// Queues every request not already queued, running, waiting to be stored, or done (fetched, refused or failed)
    /// for the same or a later round of its roster; returns at once. Requests for one key from several rosters count
    /// once, with the latest round among them.
    func want(_ requests: [Request], settings: Settings) {
        var latest: [IconKey: Request] = [:]
        var order: [IconKey] = []
        for request in requests {
            if let seen = latest[request.key] {
                if let round = request.round, seen.round.map({ round > $0 }) ?? true { latest[request.key] = request }
            } else {
                latest[request.key] = request
                order.append(request.key)
            }
        }
        let start = state.withLock { state -> Int in
            for key in order where !state.pending.contains(key) && state.fetched[key] == nil {
                let request = latest[key]!
                if let done = state.done[key] {
                    guard let round = request.round, let doneRound = done.round, round > doneRound else { continue }
                    state.done[key] = nil
                }
                state.pending.insert(key)
                state.queue.append((request, settings))
            }
            let workers = min(Self.maximumConcurrent - state.running, state.queue.count)
            state.running += max(0, workers)
            return workers
        }
        for _ in 0..<max(0, start) { Task.detached { await self.work() } }
    }

    /// The icons downloaded since the last call, by key; the fetcher forgets them (a pass that cannot store one
    /// leaves its index entry missing, and the next pass asks again).
    func takeFetched() -> [IconKey: Fetched] {
        state.withLock { state in
            defer { state.fetched = [:] }
            return state.fetched
        }
    }

    private func work() async {
        while let (request, settings) = next() {
            let outcome = await fetch(request, settings: settings)
            let settled = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.pending.remove(request.key)
                switch outcome {
                case .success(let fetched):
                    state.fetched[request.key] = fetched
                    state.done[request.key] = (request.round, .fetched)
                    state.counters.ok += 1
                case .failure(let failure):
                    state.done[request.key] = (request.round, failure.refused ? .refused : .failed)
                    if failure.refused { state.counters.refused += 1 } else { state.counters.failed += 1 }
                    state.counters.reasons[failure.kind, default: 0] += 1
                }
                guard state.pending.isEmpty else { return [] }
                defer { state.settleWaiters = [:] }
                return Array(state.settleWaiters.values)
            }
            for waiter in settled { waiter.resume() }
            switch outcome {
            case .success: fetchedHandler()
            case .failure(let failure):
                log.warning(
                    "icon of app \(request.appId) at \(request.key.size) px "
                        + (failure.refused ? "refused" : "not fetched") + ": \(failure.reason); the app keeps its "
                        + "iconUrl only, and the icon is tried again at the roster's next refresh",
                    fields: [.error: failure.reason])
            }
        }
    }

    private func next() -> (Request, Settings)? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.queue.removeFirst()
        }
    }

    private struct Failure: Error {
        var refused: Bool
        var kind: IconFailureReason
        var reason: String
    }

    private func fetch(_ request: Request, settings: Settings) async -> Result<Fetched, Failure> {
        guard let url = request.key.url else {
            return .failure(
                Failure(refused: true, kind: .badURL, reason: "its iconUrl does not end in <w>x<h>bb.<ext>"))
        }
        guard settings.rules.allowsIconURL(url) else {
            return .failure(
                Failure(
                    refused: true, kind: .hostNotAllowed,
                    reason: "\(url) is not under lookup.artwork_hosts (nothing was fetched)"))
        }
        switch await transport.get(url, maxBytes: settings.maxBytes, timeout: settings.timeout) {
        case .refused(let kind, let reason):
            return .failure(Failure(refused: true, kind: kind, reason: "\(url): \(reason)"))
        case .failed(let kind, let reason):
            return .failure(Failure(refused: false, kind: kind, reason: "\(url): \(reason)"))
        case .body(let bytes):
            switch ImageHeader.check(bytes, size: request.key.size) {
            case .success(let header):
                return .success(Fetched(path: IconName.path(of: bytes, format: header.format), bytes: bytes))
            case .failure(let error):
                let kind: IconFailureReason = if case .wrongSize = error { .wrongSize } else { .notImage }
                return .failure(Failure(refused: true, kind: kind, reason: "\(url): \(error)"))
            }
        }
    }
}
