/// Turns a Varlink error reply into the sentence and exit status of SPEC §9.
///
/// Each message says what happened and what to do next; the error name is kept out of the text
/// unless nothing better is known, because an operator acts on "check hosts[].bundle_id", not on
/// `io.showcase.Roster.HostAppNotFound`.
enum DaemonErrorMapping {
    static func failure(name: String, parameters p: ErrorParameters) -> CommandFailure {
        let storefront = p.storefront ?? "this storefront"
        let refreshHint = "retry with: showcasectl refresh --storefront \(p.storefront ?? "CC")"
        switch name {
        case "io.showcase.Roster.UnknownStorefront":
            return CommandFailure(
                message: "unknown storefront '\(p.storefront ?? "?")'; use an alpha-2 or alpha-3 code "
                    + "(list them with: showcasectl storefronts)",
                exitCode: .dataError)
        case "io.showcase.Roster.UnknownHost":
            return CommandFailure(
                message: "unknown host '\(p.host ?? "?")'; --host must be a bundle_id listed under hosts: "
                    + "in the daemon's configuration",
                exitCode: .dataError)
        case "org.varlink.service.InvalidParameter":
            return CommandFailure(
                message: "the daemon rejected the parameter '\(p.parameter ?? "?")'; check the value given for it "
                    + "(showcasectl COMMAND --help)",
                exitCode: .dataError)
        case "io.showcase.Roster.AppNotFound":
            return CommandFailure(
                message: "app \(p.id.map(String.init) ?? "?") is not in the \(storefront) roster (not sold there, "
                    + "excluded by the overlay, or not by this developer); list the roster with: "
                    + "showcasectl roster --storefront \(p.storefront ?? "CC")",
                exitCode: .failure)
        case "io.showcase.Roster.HostAppNotFound":
            return CommandFailure(
                message: "the lookup service does not know the host app '\(p.host ?? "?")' in \(storefront); "
                    + "check hosts[].bundle_id (and app_id) in the configuration, then \(refreshHint)",
                exitCode: .failure)
        case "io.showcase.Roster.MalformedResponse":
            return CommandFailure(
                message: "the lookup service sent a malformed response for \(storefront)"
                    + (p.detail.map { ": \($0)" } ?? "")
                    + "; the cached roster is kept on disk but not served until a refresh succeeds; \(refreshHint)",
                exitCode: .failure)
        case "io.showcase.Roster.MissingEntityParameter":
            return CommandFailure(
                message: "the lookup for \(storefront) returned results but no software rows (the signature of a "
                    + "request without entity=software); check lookup.endpoint in the configuration, then \(refreshHint)",
                exitCode: .failure)
        case "io.showcase.Roster.Unavailable":
            return CommandFailure(
                message: "no roster for \(storefront) yet"
                    + (p.reason.map { ": \($0)" } ?? "")
                    + ", and nothing is cached; check that the daemon can reach lookup.endpoint, then \(refreshHint)",
                exitCode: .failure)
        case "org.varlink.service.PermissionDenied":
            return CommandFailure(
                message: "permission denied: this needs root, the daemon's user, or a uid listed in "
                    + "socket.admin_uids in the daemon's configuration",
                exitCode: .noPermission)
        case "io.showcase.Admin.ConfigInvalid":
            let location = [p.file ?? "?", p.line.map(String.init), p.column.map(String.init)]
                .compactMap { $0 }.joined(separator: ":")
            return CommandFailure(
                message: "reload rejected: \(location): \(p.message ?? "invalid configuration"); "
                    + "the running configuration is unchanged",
                exitCode: .config)
        case "org.varlink.service.MethodNotFound", "org.varlink.service.InterfaceNotFound",
            "org.varlink.service.MethodNotImplemented":
            return CommandFailure(
                message: "the daemon does not implement \(p.method ?? p.interface ?? "this call"); showcasectl and "
                    + "showcased versions differ? (compare with: showcasectl version)",
                exitCode: .failure)
        default:
            return CommandFailure(
                message: "the daemon answered with the error \(name)"
                    + (p.message ?? p.reason ?? p.detail).map { ": \($0)" }.orEmpty
                    + "; see its log (journalctl -u showcased)",
                exitCode: .failure)
        }
    }
}

extension Optional where Wrapped == String {
    /// The string, or "" when nil.
    fileprivate var orEmpty: String { self ?? "" }
}
