import Foundation
import ShowcaseAPI
import ShowcaseConfig
import ShowcaseCore
import Varlink

/// `io.showcase.Admin`: status and the state-changing methods, for root, the daemon's own uid and
/// `socket.admin_uids` only (by SO_PEERCRED, which a client cannot forge).
///
/// Every method leaves the event loop at once — reload parses files, refresh waits on the network —
/// and answers through the responder when done.
final class AdminMethods: Sendable {
    private let daemon: DaemonCore

    init(daemon: DaemonCore) { self.daemon = daemon }

    func interface() throws(VarlinkError) -> VarlinkInterface {
        var interface = try VarlinkInterface(idl: ShowcaseInterfaces.admin)
        try interface.handle("Status") { [self] call, responder throws(VarlinkError) in
            try authorize(call)
            let daemon = self.daemon
            Task { responder.reply(await daemon.status()) }
        }
        try interface.handle("Reload") { [self] call, responder throws(VarlinkError) in
            try authorize(call)
            let daemon = self.daemon
            daemon.reloadQueue.async {
                switch daemon.reload(trigger: "Admin.Reload") {
                case .success(let generation): responder.reply(["generation": .int(Int64(generation))])
                case .failure(let errors):
                    let first = errors.first
                    responder.fail(
                        name: ShowcaseInterfaces.Error.configInvalid,
                        parameters: [
                            "file": .string(first.file), "line": .int(Int64(first.line)),
                            "column": .int(Int64(first.column)), "message": .string(first.message),
                        ])
                }
            }
        }
        try interface.handle("Refresh") { [self] call, responder throws(VarlinkError) in
            try authorize(call)
            let requested: Storefront?
            if let text = try call.optionalString("storefront") {
                do { requested = try Storefront(parsing: text) } catch { throw ReplyEncoding.unknownStorefront(text) }
            } else {
                requested = nil
            }
            let daemon = self.daemon
            Task { responder.reply(await daemon.refresh(requested)) }
        }
        return interface
    }

    private func authorize(_ call: VarlinkCall) throws(VarlinkError) {
        let uid = call.peer.uid
        if uid == 0 || uid == getuid() { return }
        if daemon.config.current.configuration.socket.adminUIDs.contains(uid) { return }
        throw .permissionDenied()
    }
}
