/// The static export's loop as a lifecycle service: it starts with a pass (the tree catches up with a
/// configuration or cache that changed while the daemon was stopped), then runs a pass per trigger (see
/// ``Exporter``); at shutdown the pass in progress finishes, so no temporary file is left behind by a stop.
struct ExportService: LifecycleService {
    /// The exporter whose loop this runs.
    let exporter: Exporter
    /// What a pass writes now (the rosters and settings of the current configuration); nil without `export:`.
    let plan: @Sendable () -> Exporter.Plan?

    func run(until shutdown: ShutdownSignal) async {
        exporter.configurationChanged()
        await exporter.run(until: shutdown, plan: plan)
    }
}
