/// One long-running part of the daemon — the refresh scheduler, the socket, the watchdog — as a value the
/// ``ServiceGroup`` runs in its task group (the shape of swift-service-lifecycle's `Service`).
protocol LifecycleService: Sendable {
    /// Does the service's work until `shutdown` fires (or the work is done), then finishes what is in flight
    /// and returns.
    func run(until shutdown: ShutdownSignal) async
}
