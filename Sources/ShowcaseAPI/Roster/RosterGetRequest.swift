import ShowcaseCore
import Varlink

/// The parameters of `io.showcase.Roster.Get`: one storefront's roster, filtered and overlaid for this query.
///
/// The daemon decodes every `Get` with this type and showcasectl builds its calls with it, so the rules below
/// (what is required, what null means, the `waitMs` cap) are written once.
public struct RosterGetRequest: APIValue {
    /// The longest a daemon holds a `Get` for a warming roster, in milliseconds: a minute. A larger `waitMs` waits
    /// this long, so no call keeps a timer (and its memory) alive for longer.
    public static let maxWaitMs = 60_000

    /// The storefront, parsed from its code (alpha-2 or alpha-3, any case: `de`, `DEU`) where the call is read.
    public var storefront: Storefront
    /// A configured host's bundle id; nil asks for the first host in the configuration.
    public var host: String?
    /// The store, from `ios` or `macos` in any case; nil applies the configuration's `default_platform`.
    public var platform: Platform?
    /// A device family (`iphone ipad watch tv vision mac`, any case): only apps that run on it. Nil on the iOS
    /// store keeps the apps that run on an iPhone or an iPad.
    public var device: DeviceFamily?
    /// The device's OS version ("17.2"); nil applies no OS-floor filter (the platform still applies).
    public var osVersion: OSVersion?
    /// A BCP 47 tag choosing taglines; nil uses the storefront's own locale.
    public var locale: String?
    /// How long the daemon may hold the reply while the roster is still warming, in milliseconds, as asked (see
    /// ``heldWaitMs``).
    public var waitMs: Int?

    /// How long the daemon holds this call for a warming roster: `waitMs` capped at ``maxWaitMs``; nil asks for no
    /// wait.
    public var heldWaitMs: Int? { waitMs.map { min($0, Self.maxWaitMs) } }

    /// A query; only `storefront` is required.
    public init(
        storefront: Storefront, host: String? = nil, platform: Platform? = nil, device: DeviceFamily? = nil,
        osVersion: OSVersion? = nil, locale: String? = nil, waitMs: Int? = nil
    ) {
        self.storefront = storefront
        self.host = host
        self.platform = platform
        self.device = device
        self.osVersion = osVersion
        self.locale = locale
        self.waitMs = waitMs
    }

    /// Reads a call's parameters in one pass over its members (`Get` is the daemon's hot path: one walk costs less
    /// than seven hashed lookups), then checks them in the interface's order, so the first invalid parameter is
    /// the same whatever order the caller sent them in: `storefront` a required storefront code; `host` an optional
    /// string; `platform`, `device` and `osVersion` optional strings that parse as their types; `locale` an optional
    /// string; `waitMs` an optional integer, not negative. Null reads as absent; unknown members are ignored.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        var storefront: JSONValue?
        var host: JSONValue?
        var platform: JSONValue?
        var device: JSONValue?
        var osVersion: JSONValue?
        var locale: JSONValue?
        var waitMs: JSONValue?
        for (name, value) in object.members {
            switch name {
            case "storefront": storefront = value
            case "host": host = value
            case "platform": platform = value
            case "device": device = value
            case "osVersion": osVersion = value
            case "locale": locale = value
            case "waitMs": waitMs = value
            default: continue
            }
        }
        self.storefront = try object.storefront("storefront", storefront)
        self.host = try object.optionalString("host", host)
        self.platform = try object.optionalValue("platform", platform, expected: "ios or macos") {
            Platform(rawValue: $0.lowercased())
        }
        self.device = try object.optionalValue("device", device, expected: "a device family") {
            DeviceFamily(rawValue: $0.lowercased())
        }
        self.osVersion = try object.optionalValue("osVersion", osVersion, expected: "a version like 17.2") {
            OSVersion($0)
        }
        self.locale = try object.optionalString("locale", locale)
        self.waitMs = try object.optionalInt("waitMs", waitMs)
        if let wait = self.waitMs, wait < 0 {
            throw APIDecodingError(field: object.path(of: "waitMs"), problem: .invalid("must not be negative"))
        }
    }

    /// The call's parameters; nil fields are omitted.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 7)
        object.set("storefront", storefront.code)
        object.set("host", host)
        object.set("platform", platform?.rawValue)
        object.set("device", device?.rawValue)
        object.set("osVersion", osVersion?.text)
        object.set("locale", locale)
        object.set("waitMs", waitMs)
        return object.object
    }
}
