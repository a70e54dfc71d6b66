import Varlink

/// The parameters of `io.showcase.Roster.Get`: one storefront's roster, filtered and overlaid for this query.
public struct RosterGetRequest: APIValue {
    /// The storefront code, alpha-2 or alpha-3, any case (`de`, `DEU`).
    public var storefront: String
    /// A configured host's bundle id; nil asks for the first host in the configuration.
    public var host: String?
    /// `ios` or `macos`; nil applies the configuration's `default_platform`.
    public var platform: String?
    /// A device family (`iphone ipad watch tv vision mac`): only apps that run on it. Nil on the iOS store keeps the
    /// apps that run on an iPhone or an iPad.
    public var device: String?
    /// The device's OS version ("17.2"); nil applies no OS-floor filter (the platform still applies).
    public var osVersion: String?
    /// A BCP 47 tag choosing taglines; nil uses the storefront's own locale.
    public var locale: String?
    /// How long the daemon may hold the reply while the roster is still warming, in milliseconds.
    public var waitMs: Int?

    /// A query; only `storefront` is required.
    public init(
        storefront: String, host: String? = nil, platform: String? = nil, device: String? = nil,
        osVersion: String? = nil, locale: String? = nil, waitMs: Int? = nil
    ) {
        self.storefront = storefront
        self.host = host
        self.platform = platform
        self.device = device
        self.osVersion = osVersion
        self.locale = locale
        self.waitMs = waitMs
    }

    /// Reads a call's parameters; a negative `waitMs` is invalid.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        storefront = try object.string("storefront")
        host = try object.optionalString("host")
        platform = try object.optionalString("platform")
        device = try object.optionalString("device")
        osVersion = try object.optionalString("osVersion")
        locale = try object.optionalString("locale")
        waitMs = try object.optionalInt("waitMs")
        if let waitMs, waitMs < 0 {
            throw APIDecodingError(field: object.path(of: "waitMs"), problem: .invalid("must not be negative"))
        }
    }

    /// The call's parameters; nil fields are omitted.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 7)
        object.set("storefront", storefront)
        object.set("host", host)
        object.set("platform", platform)
        object.set("device", device)
        object.set("osVersion", osVersion)
        object.set("locale", locale)
        object.set("waitMs", waitMs)
        return object.object
    }
}
