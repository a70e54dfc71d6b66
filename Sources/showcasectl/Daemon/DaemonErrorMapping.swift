import ShowcaseAPI
import ShowcaseConfig
import Varlink

/// Turns a Varlink error reply into the sentence and exit status of the README's troubleshooting table.
///
/// Each message says what happened and what to do next; the error name is kept out of the text
/// unless nothing better is known, because an operator acts on "check hosts[].bundle_id", not on
/// `io.showcase.Roster.HostAppNotFound`.
enum DaemonErrorMapping {
    static func failure(_ varlinkError: VarlinkError) -> CommandFailure {
        let reply: ShowcaseErrorReply?
        do {
            reply = try ShowcaseErrorReply(varlinkError)
        } catch {
            return CommandFailure(
                message: "could not read the daemon's error \(varlinkError.name) (\(error)); showcasectl and "
                    + "showcased versions differ? compare with: showcasectl version",
                exitCode: .failure)
        }
        if let reply { return failure(reply) }
        return standardFailure(name: varlinkError.name, parameters: varlinkError.parameters)
    }

    /// The errors of the showcase interfaces.
    static func failure(_ reply: ShowcaseErrorReply) -> CommandFailure {
        let refreshHint = { (storefront: String) in "retry with: showcasectl refresh --storefront \(storefront)" }
        switch reply {
        case .unknownStorefront(let storefront):
            return CommandFailure(
                message: "unknown storefront '\(storefront)'; use an alpha-2 or alpha-3 code "
                    + "(list them with: showcasectl storefronts)",
                exitCode: .dataError)
        case .unknownHost(let host):
            return CommandFailure(
                message: "unknown host '\(host)'; --host must be a bundle_id listed under hosts: "
                    + "in the daemon's configuration",
                exitCode: .dataError)
        case .appNotFound(let id, let storefront):
            return CommandFailure(
                message: "app \(id) is not in the \(storefront) roster (not sold there, "
                    + "excluded by the overlay, not by this developer, or the host app itself, which its roster never "
                    + "lists); list the roster with: "
                    + "showcasectl roster --storefront \(storefront)",
                exitCode: .failure)
        case .hostAppNotFound(let host, let storefront):
            return CommandFailure(
                message: "the lookup service does not know the host app '\(host)' in \(storefront); "
                    + "check hosts[].bundle_id (and app_id) in the configuration, then \(refreshHint(storefront))",
                exitCode: .failure)
        case .malformedResponse(let storefront, let detail):
            return CommandFailure(
                message: "the lookup service sent a malformed response for \(storefront): \(detail)"
                    + "; the cached roster is kept on disk but not served until a refresh succeeds; "
                    + refreshHint(storefront),
                exitCode: .failure)
        case .missingEntityParameter(let storefront):
            return CommandFailure(
                message: "the lookup for \(storefront) returned results but no software rows (the signature of a "
                    + "request without entity=software); check lookup.endpoint in the configuration, then "
                    + refreshHint(storefront),
                exitCode: .failure)
        case .unavailable(let storefront, let reason):
            return CommandFailure(
                // The reason is the daemon's own sentence, with what to check: quoted once, not wrapped in another.
                message: "nothing is cached for \(storefront): \(reason); fetch it again with: "
                    + "showcasectl refresh --storefront \(storefront)",
                exitCode: .failure)
        case .configInvalid(let file, let line, let column, let message):
            return CommandFailure(
                // The outcome first, so a message ending in a question ("did you mean 'excluded'?") ends the line.
                message: "reload rejected, the running configuration is unchanged: "
                    + "\(SourceLocation(file: file, line: line, column: column)): \(message)",
                exitCode: .config)
        case .exportNotConfigured:
            return CommandFailure(
                message: "the daemon's configuration has no export.directory, so there is nothing to export; "
                    + "add an export: section (directory: /var/lib/showcase/export) and run: showcasectl reload",
                exitCode: .config)
        }
    }

    /// The standard `org.varlink.service` errors, and any error this client does not know.
    private static func standardFailure(name: String, parameters: JSONValue) -> CommandFailure {
        let text = { (key: String) in parameters[key]?.stringValue }
        switch name {
        case VarlinkError.invalidParameterName:
            return CommandFailure(
                message: "the daemon rejected the parameter '\(text("parameter") ?? "?")'; check the value given "
                    + "for it (showcasectl COMMAND --help)",
                exitCode: .dataError)
        case VarlinkError.permissionDeniedName:
            return CommandFailure(
                message: "permission denied: this needs root, the daemon's user, or a uid listed in "
                    + "socket.admin_uids in the daemon's configuration",
                exitCode: .noPermission)
        case VarlinkError.serviceBusyName:
            return CommandFailure(
                message: "showcased is busy (\(text("reason") ?? "too many connections")); it is running but "
                    + "admits no more clients now: retry later, or find who holds the connections "
                    + "(ss -xp | grep showcased)",
                exitCode: .unavailable)
        case VarlinkError.methodNotFoundName, VarlinkError.interfaceNotFoundName,
            VarlinkError.methodNotImplementedName:
            return CommandFailure(
                message: "the daemon does not implement \(text("method") ?? text("interface") ?? "this call"); "
                    + "showcasectl and showcased versions differ? (compare with: showcasectl version)",
                exitCode: .failure)
        default:
            return CommandFailure(
                message: "the daemon answered with the error \(name)"
                    + ((text("message") ?? text("reason") ?? text("detail")).map { ": \($0)" } ?? "")
                    + "; see its log (journalctl -u showcased)",
                exitCode: .failure)
        }
    }
}
