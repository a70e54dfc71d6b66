import FoundationEssentials
import ShowcaseCore

/// One change the daemon noticed in a roster: an app added, removed, updated to a new version, or repriced.
///
/// Kept exactly as upstream gave it (Apple's `storeUrl`, the storefront's names and price labels); the overlay
/// (exclusions) and attribution are applied when it is read, so a reload changes what `Roster.Changes` and the
/// feeds show without rewriting history. One entry is one line of a history log (``HistoryEntry/line``).
public struct HistoryEntry: Sendable, Hashable, Codable {
    /// What kind of change it is; the wire's `kind` and the Atom `category term`.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// An app id the previous roster did not list.
        case added
        /// An app id the previous roster listed and this one does not (a dropped row is not a removal).
        case removed
        /// The app's `version` changed; the entry carries `version`, `versionDate` and `releaseNotes`.
        case updated
        /// The app's `price` changed; the entry carries `formattedPrice` and `previousFormattedPrice`.
        case price
    }

    /// Increases by one per entry of its roster, and never repeats there (not even after `history.keep` dropped
    /// older entries, or a restart).
    public var serial: Int
    /// When the change was detected (the refresh's fetch time).
    public var at: Date
    /// What changed.
    public var kind: Kind
    /// The app's trackId.
    public var id: Int
    /// The app's name as the storefront spelt it (for `removed`, as it was last seen).
    public var name: String
    /// The store the app is sold in.
    public var platform: Platform
    /// Apple's store URL, without attribution (applied at read time).
    public var storeUrl: String
    /// The artwork URL.
    public var iconUrl: String
    /// The new version (`updated`), or the version an `added` app arrived with.
    public var version: String?
    /// `currentVersionReleaseDate` of an `updated` app, as upstream sent it.
    public var versionDate: String?
    /// The release notes of an `updated` app, at most ``ReleaseNotes/maximumBytes`` (cut and marked with "…").
    public var releaseNotes: String?
    /// The price label now (`price`, `added`).
    public var formattedPrice: String?
    /// The price label before (`price`).
    public var previousFormattedPrice: String?
    /// The new price as a number, not served: it lets a baseline be brought up to date from the log after a crash.
    public var price: Double?

    /// An entry with every field given (the differ and tests build them).
    public init(
        serial: Int, at: Date, kind: Kind, id: Int, name: String, platform: Platform, storeUrl: String,
        iconUrl: String, version: String? = nil, versionDate: String? = nil, releaseNotes: String? = nil,
        formattedPrice: String? = nil, previousFormattedPrice: String? = nil, price: Double? = nil
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
        self.price = price
    }
}
