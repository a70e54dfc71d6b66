import ShowcaseCore

/// The pass after READY that decodes every cached roster nothing has asked for yet, off the event loop, so the
/// first query of each storefront finds it in memory (queries arriving meanwhile decode their own roster on
/// demand); then brings systemd's status line up to date (which reads every storefront's state, so it waits for
/// the decode rather than decoding them all on its own thread at the same time). Ends when done.
struct CacheDecodingService: LifecycleService {
    /// The state whose listed rosters are decoded.
    let state: StateOwner
    /// The clock the decode is timed by.
    let clock: any ShowcaseClock
    /// Where the decode's count and duration are logged.
    let log: DaemonLog
    /// Where the status line goes.
    let notifier: SystemdNotifier
    /// systemd's `STATUS=` line as of now.
    let statusLine: @Sendable () -> String

    func run(until shutdown: ShutdownSignal) async {
        let (state, clock, log, notifier, statusLine) = (state, clock, log, notifier, statusLine)
        await offload(qos: .utility) {
            let started = clock.instant
            let listed = state.undecodedCount
            let unusable = state.decodeListed()
            let elapsed = (clock.instant - started).seconds
            log.info(
                "decoded \(listed) cached rosters in \(Int((elapsed * 1000).rounded())) ms"
                    + (unusable > 0 ? " (\(unusable) unreadable, refetching)" : ""))
            if notifier.isEnabled { notifier.status(statusLine()) }
        }
    }
}
