import Varlink

/// One `Change` of `io.showcase.Roster.Changes`: an app added, removed, updated or repriced, as the overlay shows
/// it now (an excluded app's entries never appear; attribution applies to `storeUrl`).
public struct RosterChange: APIValue {
    /// The open set of `kind` values.
    public enum Kind {
        /// An app that was not in the roster before.
        public static let added = "added"
        /// An app that left the roster.
        public static let removed = "removed"
        /// A new version (`version`, `versionDate`, `releaseNotes`).
        public static let updated = "updated"
        /// A new price (`formattedPrice`, `previousFormattedPrice`).
        public static let price = "price"
    }

    /// Increases by one per entry of the roster and never repeats: what a client pages with (`since`).
    public var serial: Int
    /// When the daemon detected it, RFC 3339 UTC.
    public var at: String
    /// `added`, `removed`, `updated` or `price` (``Kind``); a client shows an unknown kind as it is.
    public var kind: String
    /// The app's trackId.
    public var id: Int
    /// The app's name as the storefront spells it.
    public var name: String
    /// `ios` or `macos`.
    public var platform: String
    /// The App Store URL, with attribution when configured.
    public var storeUrl: String
    /// The artwork URL.
    public var iconUrl: String
    /// The new version (`updated`; an `added` app's first version).
    public var version: String?
    /// The new version's release date as upstream gave it (`updated`).
    public var versionDate: String?
    /// The new version's release notes, at most 4 KiB, cut with "…" (`updated`).
    public var releaseNotes: String?
    /// The price label now (`price`, `added`).
    public var formattedPrice: String?
    /// The price label before (`price`).
    public var previousFormattedPrice: String?

    /// A change with every field given.
    public init(
        serial: Int, at: String, kind: String, id: Int, name: String, platform: String, storeUrl: String,
        iconUrl: String, version: String? = nil, versionDate: String? = nil, releaseNotes: String? = nil,
        formattedPrice: String? = nil, previousFormattedPrice: String? = nil
    ) {
        self.serial = serial
        self.at = at
        self.kind = kind
        self.id = id
        self.name = name
        self.platform = platform
        self.storeUrl = storeUrl
        self.iconUrl = iconUrl
        self.version = version
        self.versionDate = versionDate
        self.releaseNotes = releaseNotes
        self.formattedPrice = formattedPrice
        self.previousFormattedPrice = previousFormattedPrice
    }

    /// Reads a `Change` object.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        serial = try object.int("serial")
        at = try object.string("at")
        kind = try object.string("kind")
        id = try object.int("id")
        name = try object.string("name")
        platform = try object.string("platform")
        storeUrl = try object.string("storeUrl")
        iconUrl = try object.string("iconUrl")
        version = try object.optionalString("version")
        versionDate = try object.optionalString("versionDate")
        releaseNotes = try object.optionalString("releaseNotes")
        formattedPrice = try object.optionalString("formattedPrice")
        previousFormattedPrice = try object.optionalString("previousFormattedPrice")
    }

    /// The `Change` object; nil fields are omitted.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 13)
        object.set("serial", serial)
        object.set("at", at)
        object.set("kind", kind)
        object.set("id", id)
        object.set("name", name)
        object.set("platform", platform)
        object.set("storeUrl", storeUrl)
        object.set("iconUrl", iconUrl)
        object.set("version", version)
        object.set("versionDate", versionDate)
        object.set("releaseNotes", releaseNotes)
        object.set("formattedPrice", formattedPrice)
        object.set("previousFormattedPrice", previousFormattedPrice)
        return object.object
    }
}
