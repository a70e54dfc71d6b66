import Varlink

/// The errors of `io.showcase.Roster` and `io.showcase.Admin`, with their parameters.
///
/// The daemon throws ``varlinkError`` to answer a call; a client turns a `VarlinkError` it received back into
/// this with ``init(_:)`` and switches over the cases, so a misspelled name or parameter cannot compile.
public enum ShowcaseErrorReply: Error, Sendable, Equatable {
    /// The storefront code is not an App Store storefront.
    case unknownStorefront(storefront: String)
    /// The host bundle id is not one of the configured hosts.
    case unknownHost(host: String)
    /// No app with that id in the storefront's roster (as this query sees it).
    case appNotFound(id: Int, storefront: String)
    /// The lookup service knows no app with the host's bundle id in that storefront.
    case hostAppNotFound(host: String, storefront: String)
    /// The upstream answer could not be used as a lookup reply; the cache is not served in its place.
    case malformedResponse(storefront: String, detail: String)
    /// Upstream answered with results but no apps: a request without `entity=software`.
    case missingEntityParameter(storefront: String)
    /// The transport failed (network, timeout, 5xx, throttling) and nothing is cached to serve instead.
    case unavailable(storefront: String, reason: String)
    /// A reload found a mistake in the configuration, at `file:line:column`.
    case configInvalid(file: String, line: Int, column: Int, message: String)
    /// `Admin.Export` was called but the configuration has no `export.directory`.
    case exportNotConfigured

    /// The fully qualified error name.
    public var name: String {
        switch self {
        case .unknownStorefront: return ShowcaseInterfaces.Error.unknownStorefront
        case .unknownHost: return ShowcaseInterfaces.Error.unknownHost
        case .appNotFound: return ShowcaseInterfaces.Error.appNotFound
        case .hostAppNotFound: return ShowcaseInterfaces.Error.hostAppNotFound
        case .malformedResponse: return ShowcaseInterfaces.Error.malformedResponse
        case .missingEntityParameter: return ShowcaseInterfaces.Error.missingEntityParameter
        case .unavailable: return ShowcaseInterfaces.Error.unavailable
        case .configInvalid: return ShowcaseInterfaces.Error.configInvalid
        case .exportNotConfigured: return ShowcaseInterfaces.Error.exportNotConfigured
        }
    }

    /// The error's parameters, as the IDL declares them.
    public var parameters: JSONValue {
        switch self {
        case .unknownStorefront(let storefront): return ["storefront": .string(storefront)]
        case .unknownHost(let host): return ["host": .string(host)]
        case .appNotFound(let id, let storefront): return ["id": .int(Int64(id)), "storefront": .string(storefront)]
        case .hostAppNotFound(let host, let storefront):
            return ["host": .string(host), "storefront": .string(storefront)]
        case .malformedResponse(let storefront, let detail):
            return ["storefront": .string(storefront), "detail": .string(detail)]
        case .missingEntityParameter(let storefront): return ["storefront": .string(storefront)]
        case .unavailable(let storefront, let reason):
            return ["storefront": .string(storefront), "reason": .string(reason)]
        case .configInvalid(let file, let line, let column, let message):
            return [
                "file": .string(file), "line": .int(Int64(line)), "column": .int(Int64(column)),
                "message": .string(message),
            ]
        case .exportNotConfigured:
            return .emptyObject
        }
    }

    /// The error reply a handler throws.
    public var varlinkError: VarlinkError { VarlinkError(name: name, parameters: parameters) }

    /// Reads an error reply named `name`; nil when the name is not one of these interfaces' errors (a standard
    /// `org.varlink.service` error, or one from a newer daemon). Throws when a parameter is missing or mistyped.
    public init?(name: String, parameters: JSONValue) throws(APIDecodingError) {
        let object = try APIObjectReader(parameters.isNull ? .emptyObject : parameters, path: "")
        switch name {
        case ShowcaseInterfaces.Error.unknownStorefront:
            self = .unknownStorefront(storefront: try object.string("storefront"))
        case ShowcaseInterfaces.Error.unknownHost:
            self = .unknownHost(host: try object.string("host"))
        case ShowcaseInterfaces.Error.appNotFound:
            self = .appNotFound(id: try object.int("id"), storefront: try object.string("storefront"))
        case ShowcaseInterfaces.Error.hostAppNotFound:
            self = .hostAppNotFound(host: try object.string("host"), storefront: try object.string("storefront"))
        case ShowcaseInterfaces.Error.malformedResponse:
            self = .malformedResponse(storefront: try object.string("storefront"), detail: try object.string("detail"))
        case ShowcaseInterfaces.Error.missingEntityParameter:
            self = .missingEntityParameter(storefront: try object.string("storefront"))
        case ShowcaseInterfaces.Error.unavailable:
            self = .unavailable(storefront: try object.string("storefront"), reason: try object.string("reason"))
        case ShowcaseInterfaces.Error.configInvalid:
            self = .configInvalid(
                file: try object.string("file"), line: try object.int("line"), column: try object.int("column"),
                message: try object.string("message"))
        case ShowcaseInterfaces.Error.exportNotConfigured:
            self = .exportNotConfigured
        default:
            return nil
        }
    }

    /// Reads an error reply the client received; nil for a local failure or an error not of these interfaces.
    public init?(_ error: VarlinkError) throws(APIDecodingError) {
        guard error.code == .reply else { return nil }
        try self.init(name: error.name, parameters: error.parameters)
    }
}
