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
    private let service: RosterService
    private let callCounts: VarlinkCallCounts

    /// The Admin methods over `service`; `Metrics` reports the calls `callCounts` has counted.
    init(service: RosterService, callCounts: VarlinkCallCounts) {
        self.service = service
        self.callCounts = callCounts
    }

    func interface() throws(VarlinkError) -> VarlinkInterface {
        var interface = try VarlinkInterface(idl: ShowcaseInterfaces.admin)
        try interface.handle(ShowcaseInterfaces.Method.status) { [self] call, responder throws(VarlinkError) in
            try authorize(call)
            let service = self.service
            Task { responder.reply(ReplyEncoding.status(service.status())) }
        }
        try interface.handle(ShowcaseInterfaces.Method.reload) { [self] call, responder throws(VarlinkError) in
            try authorize(call)
            let service = self.service
            Task {
                switch await service.reload(trigger: "Admin.Reload") {
                case .success(let generation): responder.reply(ReplyEncoding.reloaded(generation: generation))
                case .failure(let errors): responder.fail(ReplyEncoding.configInvalid(errors))
                }
            }
        }
        try interface.handle(ShowcaseInterfaces.Method.refresh) { [self] call, responder throws(VarlinkError) in
            try authorize(call)
            let requested = try call.request(AdminRefreshRequest.self).storefront
            let service = self.service
            Task { responder.reply(ReplyEncoding.refresh(await service.refresh(requested))) }
        }
        try interface.handle(ShowcaseInterfaces.Method.export) { [self] call, responder throws(VarlinkError) in
            try authorize(call)
            guard service.state.config.configuration.export != nil else { throw ReplyEncoding.exportNotConfigured }
            let exporter = service.exporter
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
            let (service, callCounts) = (self.service, self.callCounts)
            Task {
                let text = PrometheusExposition.render(service.metrics(varlinkCalls: callCounts.snapshot()))
                responder.reply(ReplyEncoding.metrics(text))
            }
        }
        return interface
    }

    private func authorize(_ call: VarlinkCall) throws(VarlinkError) {
        let uid = call.peer.uid
        if uid == 0 || uid == getuid() { return }
        if service.state.config.configuration.socket.adminUIDs.contains(uid) { return }
        throw .permissionDenied()
    }
}
