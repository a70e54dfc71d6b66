import FoundationEssentials
import ShowcaseCore

/// The daemon's second fetcher, for images only (SPEC §16): a careful client of Apple's image CDN that never
/// holds back the JSON export.
///
/// Export passes ask for what their documents lack (``want(_:settings:)``) and go on writing without it. What is
/// downloaded when is decided in the daemon's state (``IconBook``, a part of ``DaemonState``): the fetcher holds no
/// state of its own, it performs the downloads the state's transitions hand it (``StateChange/iconDownloads``) and
/// hands each one's end back; an icon ready asks the state for an export like a roster change, so the next pass adds
/// it (``takeFetched()``). Its rules:
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

    /// Downloads at a time (SPEC §16).
    static let maximumConcurrent = 2

    /// The daemon's state, whose ``DaemonState/icons`` decides what is downloaded when.
    private let owner: StateOwner
    private let transport: any ImageTransport
    private let log: DaemonLog

    /// A fetcher over `transport`, logging to `log`, that performs the downloads `owner`'s ``IconBook`` starts
    /// (it becomes the owner's ``StateOwner/Observers/iconDownloads``).
    init(state owner: StateOwner, transport: any ImageTransport, log: DaemonLog) {
        self.owner = owner
        self.transport = transport
        self.log = log
        owner.observe { $0.iconDownloads = { [weak self] downloads in self?.start(downloads) } }
    }

    /// The counters as of now.
    var counters: Counters { owner.read { $0.icons.counters } }

    /// Keys queued or running now.
    var pendingCount: Int { owner.read { $0.icons.pending.count } }

    /// How `key`'s last request ended; nil when it was never asked for, or is queued or running now.
    func outcome(of key: IconKey) -> Outcome? { owner.read { $0.icons.outcome(of: key) } }

    /// Returns once nothing is queued or running (at once when nothing is), or when the calling task is cancelled:
    /// a one-shot run waits here, bounded by `--max-wait`, for the icons it asked for before it writes the
    /// documents that reference them.
    func settled() async {
        guard let ticket = owner.update({ state, _ in state.iconSettleTicket() }) else { return }
        let owner = self.owner
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Cancellation is read under the owner's lock, which the cancellation handler takes too, so a
                // cancellation is never missed.
                owner.update { state, _ in state.waitForIcons(ticket, continuation, cancelled: Task.isCancelled) }
            }
        } onCancel: {
            owner.update { state, _ in state.stopWaitingForIcons(ticket) }
        }
    }

    /// Asks for every request not already queued, running, waiting to be stored, or done (fetched, refused or
    /// failed) for the same or a later round of its roster (``IconBook/want(_:settings:)``); returns at once.
    func want(_ requests: [Request], settings: Settings) {
        owner.update { state, _ in state.iconsWanted(requests, settings: settings) }
    }

    /// The icons downloaded since the last call, by key; forgotten once taken (a pass that cannot store one
    /// leaves its index entry missing, and the next pass asks again).
    func takeFetched() -> [IconKey: Fetched] { owner.update { state, _ in state.takeFetchedIcons() } }

    /// Starts `downloads`, each in its own task, as the state handed them over.
    private func start(_ downloads: [IconBook.Download]) {
        for download in downloads { Task.detached { await self.perform(download) } }
    }

    /// Downloads and checks one icon, and hands how it ended to the state, which starts the next ones.
    private func perform(_ download: IconBook.Download) async {
        let request = download.request
        let outcome = await fetch(request, settings: download.settings)
        let end: IconBook.End =
            switch outcome {
            case .success(let fetched): .fetched(fetched)
            case .failure(let failure): failure.refused ? .refused(failure.kind) : .failed(failure.kind)
            }
        owner.update { state, _ in state.iconDownloadEnded(download, end) }
        if case .failure(let failure) = outcome {
            log.warning(
                "icon of app \(request.appId) at \(request.key.size) px "
                    + (failure.refused ? "refused" : "not fetched") + ": \(failure.reason); the app keeps its "
                    + "iconUrl only, and the icon is tried again at the roster's next refresh",
                fields: [.error: failure.reason])
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
