/// The static export's loop as a lifecycle service: it starts with a pass (the tree catches up with a
/// configuration or cache that changed while the daemon was stopped), then runs a pass per trigger (see
/// ``Exporter``); at shutdown the pass in progress finishes, so no temporary file is left behind by a stop.
struct ExportService: LifecycleService {
    /// The service whose rosters are exported.
    let service: RosterService

    func run(until shutdown: ShutdownSignal) async {
        let service = self.service
        service.exporter.configurationChanged()
        await service.exporter.run(until: shutdown) { service.exportPlan() }
    }
}
