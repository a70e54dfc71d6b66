/// A Varlink error: either one a service replied with (keeping its fully qualified name and
/// parameters, so callers can branch on `name` and read the details), or a local failure of
/// the transport (connect, timeout, closed connection, malformed reply).
///
/// Handlers throw it to answer a call with an error; the client throws it for error replies.
/// `description` is always a sentence a user can act on.
public struct VarlinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is. Compare errors by `code` (and `name` for `.reply`).
    public enum Code: String, Sendable, Equatable {
        /// The service answered with an error reply (or a handler wants to send one).
        case reply
        /// The socket could not be opened or connected.
        case connectionFailed
        /// The peer closed the connection before the reply arrived.
        case connectionClosed
        /// No reply arrived within the timeout.
        case timeout
        /// The peer sent bytes that are not a valid Varlink message.
        case protocolViolation
        /// An interface definition did not parse or was registered twice.
        case invalidInterface
        /// The server could not bind or listen.
        case bindFailed
    }

    /// What kind of failure this is; `.reply` for every error a service sent.
    public let code: Code
    /// Fully qualified error name (`org.varlink.service.MethodNotFound`) for `.reply`;
    /// for local failures a name under `org.varlink.client.` describing the code.
    public let name: String
    /// The error's parameters (an object, possibly empty).
    public let parameters: JSONValue
    /// Human-readable detail for local failures.
    public let detail: String

    /// An error reply named `name` carrying `parameters`.
    public init(name: String, parameters: JSONValue = .emptyObject) {
        self.code = .reply
        self.name = name
        self.parameters = parameters.isNull ? .emptyObject : parameters
        self.detail = ""
    }

    /// A local failure with a sentence saying what happened and what to do.
    public init(code: Code, detail: String) {
        self.code = code
        self.name = "org.varlink.client." + code.rawValue
        self.parameters = .emptyObject
        self.detail = detail
    }

    /// A sentence for the user: a readable text for the standard `org.varlink.service` errors, otherwise the error name
    /// with its parameters, or `detail` for a local failure.
    public var description: String {
        guard code == .reply else { return detail }
        switch name {
        case VarlinkError.interfaceNotFoundName:
            return "The service does not provide interface \(parameters["interface"]?.stringValue ?? "?")."
        case VarlinkError.methodNotFoundName:
            return "The service has no method \(parameters["method"]?.stringValue ?? "?")."
        case VarlinkError.methodNotImplementedName:
            return "The service does not implement method \(parameters["method"]?.stringValue ?? "?")."
        case VarlinkError.invalidParameterName:
            return "The parameter '\(parameters["parameter"]?.stringValue ?? "?")' is missing or invalid."
        case VarlinkError.permissionDeniedName:
            return "Permission denied: this method needs more privileges than the caller has."
        case VarlinkError.expectedMoreName:
            return "This method streams replies and must be called with 'more' set."
        case VarlinkError.serviceBusyName:
            return "The service is busy (\(parameters["reason"]?.stringValue ?? "too many connections")); retry later."
        default:
            if case .object(let members) = parameters, !members.isEmpty {
                return "The service replied with error \(name) \(parameters)."
            }
            return "The service replied with error \(name)."
        }
    }
}

extension VarlinkError {
    /// The server refused the connection or call because a connection cap is reached (too many connections
    /// in all or from this uid). Not an `org.varlink.service` error: the name is this library's, like the
    /// `org.varlink.client.` names of local failures. Retry later, or close idle connections.
    public static let serviceBusyName = "org.varlink.server.ServiceBusy"
    /// The interface named in a call is not served.
    public static let interfaceNotFoundName = "org.varlink.service.InterfaceNotFound"
    /// The interface has no method of that name.
    public static let methodNotFoundName = "org.varlink.service.MethodNotFound"
    /// The method is declared in the interface's IDL but has no handler.
    public static let methodNotImplementedName = "org.varlink.service.MethodNotImplemented"
    /// A parameter is missing or has the wrong type; carries its name as `parameter`.
    public static let invalidParameterName = "org.varlink.service.InvalidParameter"
    /// The caller's credentials do not allow the method.
    public static let permissionDeniedName = "org.varlink.service.PermissionDenied"
    /// The method only streams and was called without `more`.
    public static let expectedMoreName = "org.varlink.service.ExpectedMore"

    /// `org.varlink.service.InterfaceNotFound(interface)`.
    public static func interfaceNotFound(_ interface: String) -> VarlinkError {
        VarlinkError(name: interfaceNotFoundName, parameters: ["interface": .string(interface)])
    }

    /// `org.varlink.service.MethodNotFound(method)`; `method` is the fully qualified name.
    public static func methodNotFound(_ method: String) -> VarlinkError {
        VarlinkError(name: methodNotFoundName, parameters: ["method": .string(method)])
    }

    /// `org.varlink.service.MethodNotImplemented(method)`: declared in the IDL, no handler.
    public static func methodNotImplemented(_ method: String) -> VarlinkError {
        VarlinkError(name: methodNotImplementedName, parameters: ["method": .string(method)])
    }

    /// `org.varlink.service.InvalidParameter(parameter)`, naming the offending parameter.
    public static func invalidParameter(_ parameter: String) -> VarlinkError {
        VarlinkError(name: invalidParameterName, parameters: ["parameter": .string(parameter)])
    }

    /// `org.varlink.server.ServiceBusy(reason)`: a connection cap is reached; `reason` says which.
    public static func serviceBusy(_ reason: String) -> VarlinkError {
        VarlinkError(name: serviceBusyName, parameters: ["reason": .string(reason)])
    }

    /// `org.varlink.service.PermissionDenied()`.
    public static func permissionDenied() -> VarlinkError {
        VarlinkError(name: permissionDeniedName)
    }

    /// `org.varlink.service.ExpectedMore()`: the method only streams.
    public static func expectedMore() -> VarlinkError {
        VarlinkError(name: expectedMoreName)
    }
}
