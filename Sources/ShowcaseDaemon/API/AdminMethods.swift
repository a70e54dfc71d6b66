import FoundationEssentials
import ShowcaseAPI
import ShowcaseConfig
import ShowcaseCore
import Varlink

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// `io.showcase.Admin`: status, metrics and the state-changing methods, for root, the daemon's own uid and
/// `socket.admin_uids` only (by SO_PEERCRED, which a client cannot forge).
///
/// Every method leaves the event loop at once — reload parses files, refresh waits on the network, export writes
/// files — and answers through the responder when done.
final class AdminMethods: Sendable {
    private let state: StateOwner
    private let status: StatusReporter
    private let reload: ReloadCommand
    private let refresh: RefreshCommand
    private let exporter: Exporter
    private let callCounts: VarlinkCallCounts

    /// The Admin methods over the state: `Status` and `Metrics` from `status` (the latter with the calls
    /// `callCounts` has counted), `Reload`, `Refresh` and `Export` by `reload`, `refresh` and `exporter`.
    init(
        state: StateOwner, status: StatusReporter, reload: ReloadCommand, refresh: RefreshCommand, exporter: Exporter,
        callCounts: VarlinkCallCounts
    ) {
        self.state = state
        self.status = status
        self.reload = reload
        self.refresh = refresh
        self.exporter = exporter
        self.callCounts = callCounts
    }

    func interface() throws(VarlinkError) -> VarlinkInterface {
        var interface = try VarlinkInterface(idl: ShowcaseInterfaces.admin)
        try interface.handle(ShowcaseInterfaces.Method.status) { [self] call, responder throws(VarlinkError) in
            try authorize(call)
            let status = self.status
            Task { responder.reply(ReplyEncoding.status(status.status())) }
        }
        try interface.handle(ShowcaseInterfaces.Method.reload) { [self] call, responder throws(VarlinkError) in
            try authorize(call)
            let reload = self.reload
            Task {
                switch await reload.reload(trigger: "Admin.Reload") {
                case .success(let generation): responder.reply(ReplyEncoding.reloaded(generation: generation))
                case .failure(let errors): responder.fail(ReplyEncoding.configInvalid(errors))
                }
            }
        }
        try interface.handle(ShowcaseInterfaces.Method.refresh) { [self] call, responder throws(VarlinkError) in
            try authorize(call)
            let requested = try call.request(AdminRefreshRequest.self).storefront
            let refresh = self.refresh
            Task { responder.reply(ReplyEncoding.refresh(await refresh.refresh(requested))) }
        }
        try interface.handle(ShowcaseInterfaces.Method.export) { [self] call, responder throws(VarlinkError) in
            try authorize(call)
            guard state.config.configuration.export != nil else { throw ReplyEncoding.exportNotConfigured }
            let exporter = self.exporter
            Task {
                // Nil: a reload removed the export section while the call waited for its pass.
                if let report = await exporter.exportNow() {
                    responder.reply(ReplyEncoding.exported(report))
                } else {
                    responder.fail(ReplyEncoding.exportNotConfigured)
                }
            }
        }
        try interface.handle(ShowcaseInterfaces.Method.metrics) { [self] call, responder throws(VarlinkError) in
            try authorize(call)
            let (status, callCounts) = (self.status, self.callCounts)
            Task {
                let text = PrometheusExposition.render(status.metrics(varlinkCalls: callCounts.snapshot()))
                responder.reply(ReplyEncoding.metrics(text))
            }
        }
        return interface
    }

    private func authorize(_ call: VarlinkCall) throws(VarlinkError) {
        let uid = call.peer.uid
        if uid == 0 || uid == getuid() { return }
        if state.config.configuration.socket.adminUIDs.contains(uid) { return }
        throw .permissionDenied()
    }
}
