/// The pass after READY that decodes every cached roster nothing has asked for yet, off the event loop, then
/// brings systemd's status line up to date (which reads every storefront's state, so it waits for the decode
/// rather than decoding them all on its own thread at the same time). Ends when done.
struct CacheDecodingService: LifecycleService {
    /// The service whose cache is decoded.
    let service: RosterService

    func run(until shutdown: ShutdownSignal) async {
        let service = self.service
        await offload(qos: .utility) {
            service.decodeCache()
            if service.notifier.isEnabled { service.notifier.status(service.statusLine()) }
        }
    }
}
