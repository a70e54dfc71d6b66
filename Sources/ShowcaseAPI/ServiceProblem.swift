import Varlink

extension RosterHealthReply {
    /// Something the daemon works around but an operator should look at, listed in `Roster.Health`'s and
    /// `Admin.Status`'s `problems` (absent when there is none, and from daemons before the field).
    ///
    /// `kind` is an open set of wire strings: ``history`` is a change history set aside (SPEC §20), named with its
    /// host and storefront; `detail` says where it went and why.
    public struct Problem: APIValue, Hashable {
        /// A history log that could not be kept (too large, a serial out of range or order) was set aside.
        public static let history = "history"

        /// What kind of problem: ``history``.
        public var kind: String
        /// The host it concerns, when one.
        public var host: String?
        /// The storefront it concerns (`ca`, or `ca/fr` for one language), when one.
        public var storefront: String?
        /// One sentence: what happened and what to do.
        public var detail: String

        /// A problem with every field given.
        public init(kind: String, host: String?, storefront: String?, detail: String) {
            self.kind = kind
            self.host = host
            self.storefront = storefront
            self.detail = detail
        }

        /// Reads one problem object.
        public init(from object: APIObjectReader) throws(APIDecodingError) {
            kind = try object.string("kind")
            host = try object.optionalString("host")
            storefront = try object.optionalString("storefront")
            detail = try object.string("detail")
        }

        /// The problem object; nil fields are omitted.
        public func encoded() -> JSONValue {
            var object = APIObjectBuilder(capacity: 4)
            object.set("kind", kind)
            object.set("host", host)
            object.set("storefront", storefront)
            object.set("detail", detail)
            return object.object
        }
    }
}

/// A problem in `Roster.Health` or `Admin.Status` (one type for both replies; see ``RosterHealthReply/Problem``).
public typealias ServiceProblem = RosterHealthReply.Problem

extension APIObjectReader {
    /// The `problems` of a reply: none when absent or null (a daemon before the field).
    func problems() throws(APIDecodingError) -> [ServiceProblem] {
        members["problems"].map { $0.isNull } == false ? try array("problems", of: ServiceProblem.self) : []
    }
}

extension APIObjectBuilder {
    /// Sets `problems`, only when there is one.
    mutating func set(problems: [ServiceProblem]) {
        if !problems.isEmpty { set("problems", problems) }
    }
}
