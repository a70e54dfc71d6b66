import ShowcaseCore
import Varlink

/// The parameters of `io.showcase.Roster.Changes`: what changed in a storefront's roster (SPEC §15), a page of it.
public struct RosterChangesRequest: APIValue {
    /// The default page size when a call names no `limit`.
    public static let defaultLimit = 100
    /// The accepted page sizes: any other `limit` is `org.varlink.service.InvalidParameter`.
    public static let limits = 1...1000

    /// The storefront, parsed from its code (alpha-2 or alpha-3, any case) where the call is read.
    public var storefront: Storefront
    /// A configured host's bundle id; nil asks for the first host in the configuration.
    public var host: String?
    /// Only entries with a serial above this one; nil asks for the newest.
    public var since: Int?
    /// At most this many entries (``limits``); nil is ``defaultLimit``.
    public var limit: Int?
    /// Which language's roster (`fr`, `fr-CA`), picked as `Get`'s `locale` picks it; nil is the storefront's
    /// default language.
    public var locale: String?

    /// The page size this call asks for: `limit`, or ``defaultLimit`` when it names none.
    public var pageSize: Int { limit ?? Self.defaultLimit }

    /// A query for `storefront`'s changes.
    public init(
        storefront: Storefront, host: String? = nil, since: Int? = nil, limit: Int? = nil, locale: String? = nil
    ) {
        self.storefront = storefront
        self.host = host
        self.since = since
        self.limit = limit
        self.locale = locale
    }

    /// Reads a call's parameters: a negative `since`, or a `limit` outside ``limits``, is invalid.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        storefront = try object.storefront("storefront")
        host = try object.optionalString("host")
        since = try object.optionalInt("since")
        limit = try object.optionalInt("limit")
        locale = try object.optionalString("locale")
        if let since, since < 0 {
            throw APIDecodingError(field: object.path(of: "since"), problem: .invalid("must not be negative"))
        }
        if let limit, !Self.limits.contains(limit) {
            throw APIDecodingError(
                field: object.path(of: "limit"),
                problem: .invalid("must be between \(Self.limits.lowerBound) and \(Self.limits.upperBound)"))
        }
    }

    /// The call's parameters; nil fields are omitted.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 5)
        object.set("storefront", storefront.code)
        object.set("host", host)
        object.set("since", since)
        object.set("limit", limit)
        object.set("locale", locale)
        return object.object
    }
}
