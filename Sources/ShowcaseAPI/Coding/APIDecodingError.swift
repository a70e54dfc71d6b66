import ShowcaseCore
import Varlink

/// A request or reply that does not have the shape its interface declares, naming the field.
///
/// `field` is a path from the top of the parameters (`apps[2].name`, `upstream.requests`), so a client built
/// against another version of the interface can say exactly which field it could not read, and the daemon can
/// answer `org.varlink.service.InvalidParameter` with the top-level parameter a caller got wrong.
public struct APIDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the field.
    public enum Problem: Sendable, Equatable {
        /// A required field is absent or `null`.
        case missing
        /// The field is present with another JSON type; `expected` names the declared one (`a string`).
        case wrongType(expected: String)
        /// The field has the declared type but a value the interface rules out (`must not be negative`).
        case invalid(String)
        /// A storefront parameter that names no App Store storefront: answered as `UnknownStorefront`.
        case unknownStorefront(StorefrontError)
    }

    /// The path of the offending field from the top of the parameters; empty for the parameters themselves.
    public let field: String
    /// What is wrong with it.
    public let problem: Problem

    /// An error about `field` (a path such as `apps[2].name`).
    public init(field: String, problem: Problem) {
        self.field = field
        self.problem = problem
    }

    /// The top-level parameter the path starts with (`apps` for `apps[2].name`): what `InvalidParameter` names.
    public var parameter: String {
        String(field.prefix { $0 != "." && $0 != "[" })
    }

    /// How a server answers the call: `org.varlink.service.InvalidParameter` naming ``parameter``, or
    /// `UnknownStorefront` naming the code as written for a storefront that is none.
    public var varlinkError: VarlinkError {
        if case .unknownStorefront(let error) = problem {
            return ShowcaseErrorReply.unknownStorefront(storefront: error.text).varlinkError
        }
        return .invalidParameter(parameter)
    }

    /// "the field 'apps[2].name' is missing", "… is a number where a string was expected".
    public var description: String {
        let subject = field.isEmpty ? "the parameters" : "the field '\(field)'"
        switch problem {
        case .missing: return "\(subject) is missing"
        case .wrongType(let expected): return "\(subject) is not \(expected)"
        case .invalid(let reason): return "\(subject) \(reason)"
        case .unknownStorefront(let error): return "\(subject): \(error)"
        }
    }
}
