import Varlink

/// The Varlink socket as a lifecycle service. The server's event loop runs on its own thread from `start()`
/// (before READY); at shutdown this ends every open Watch with a final reply, stops accepting, and lets in-flight
/// replies drain for up to `gracePeriod()` before closing. A socket file the daemon bound is removed by the server.
struct SocketService: LifecycleService {
    /// The started server.
    let server: VarlinkServer
    /// The roster methods, whose open Watch streams end first.
    let roster: RosterMethods
    /// How long in-flight replies may take to drain, read at shutdown: the daemon gives `lookup.timeout` + 1 s,
    /// so an `Admin.Refresh` whose upstream request is still running is answered rather than cut.
    var gracePeriod: @Sendable () -> Duration = { .seconds(2) }

    func run(until shutdown: ShutdownSignal) async {
        await shutdown.wait()
        let (server, roster, grace) = (server, roster, gracePeriod())
        await offload { roster.finishWatches() }
        server.beginShutdown(gracePeriod: grace)
        await server.waitUntilStopped()
    }
}
