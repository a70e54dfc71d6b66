@preconcurrency import Glibc

/// Runs the daemon's services as child tasks of one task group, for the life of the process, and turns signals
/// into lifecycle events: SIGHUP reloads, SIGTERM and SIGINT begin graceful shutdown. Returns once every service
/// has finished (the shape of swift-service-lifecycle's `ServiceGroup`, without the dependency).
///
/// Shutdown reaches every service at once rather than one by one in reverse order: the socket's drain of in-flight
/// replies must overlap the scheduler's stop, which is what answers callers still waiting for a refresh.
struct ServiceGroup: Sendable {
    /// The services, in start order.
    var services: [any LifecycleService]
    /// What the services wait on; fired once SIGTERM or SIGINT arrives.
    var shutdown: ShutdownSignal

    /// Runs the services until SIGTERM or SIGINT arrives on `signals`; `reload` runs for each SIGHUP (as a child,
    /// so a reload in progress finishes before the group returns) and `stopping` once shutdown begins.
    func run(
        signals: AsyncStream<Int32>, reload: @escaping @Sendable () async -> Void, stopping: @Sendable () -> Void
    ) async {
        let shutdown = self.shutdown
        await withDiscardingTaskGroup { group in
            for service in services { group.addTask { await service.run(until: shutdown) } }
            for await signal in signals {
                guard signal == SIGHUP else { break }
                group.addTask { await reload() }
            }
            stopping()
            shutdown.fire()
        }
    }
}
