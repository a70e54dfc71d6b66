/// The refresh scheduler's worker as a lifecycle service: it starts after READY (so no network request comes
/// before it) and, at shutdown, finishes the refresh in progress — its cache write included — while callers
/// still waiting for a refresh are answered that the daemon is shutting down.
struct SchedulerService: LifecycleService {
    /// The scheduler whose worker runs.
    let scheduler: RefreshScheduler

    func run(until shutdown: ShutdownSignal) async {
        let scheduler = self.scheduler
        await shutdown.cancelling { await scheduler.run() }
    }
}
