import FoundationEssentials
import ShowcaseCore

/// What the next roster of one (host, storefront, language) is compared with: the developer, and each app as the
/// last successful roster listed it (an app whose row was dropped as unusable since keeps its earlier state).
///
/// Kept beside the log in `state.directory`, not in the cache, so a wiped cache directory (or an upgrade from a
/// release without history) records nothing new: with no baseline the next roster becomes one. ``lastSerial``
/// says which entries it already reflects, so after a crash between appending entries and writing it, the log's
/// newer entries are applied to it (``applying(_:)``) instead of being detected, and recorded, twice.
public struct HistoryBaseline: Sendable, Hashable, Codable {
    /// One app as the baseline remembers it: what a change is detected in, and what a `removed` entry shows.
    public struct App: Sendable, Hashable, Codable {
        /// The app's name.
        public var name: String
        /// Its store.
        public var platform: Platform
        /// Apple's store URL.
        public var storeUrl: String
        /// The artwork URL.
        public var iconUrl: String
        /// `version`.
        public var version: String?
        /// `price`.
        public var price: Double?
        /// `formattedPrice`.
        public var formattedPrice: String?

        /// An app with every field given.
        public init(
            name: String, platform: Platform, storeUrl: String, iconUrl: String, version: String?, price: Double?,
            formattedPrice: String?
        ) {
            self.name = name
            self.platform = platform
            self.storeUrl = storeUrl
            self.iconUrl = iconUrl
            self.version = version
            self.price = price
            self.formattedPrice = formattedPrice
        }
    }

    /// An app's current version as the last roster that described it gave it: its date and release notes, for the
    /// site's "What's new" (SPEC §18), whether or not the history recorded that version.
    public struct Release: Sendable, Hashable, Codable {
        /// `version`.
        public var version: String?
        /// `currentVersionReleaseDate`, as upstream wrote it.
        public var versionDate: String?
        /// `releaseNotes`, capped (``ReleaseNotes/capped(_:)``).
        public var releaseNotes: String?

        /// A release with every field given.
        public init(version: String?, versionDate: String?, releaseNotes: String?) {
            self.version = version
            self.versionDate = versionDate
            self.releaseNotes = ReleaseNotes.capped(releaseNotes)
        }

        /// The release as it may be shown (SPEC §20, checked on read like an entry): notes within
        /// ``ReleaseNotes/maximumBytes``, a date only when it is a real RFC 3339 date no more than
        /// ``HistoryEntry/releaseDateLead`` after `now`.
        public func checked(now: Date) -> Release {
            var release = Release(version: version, versionDate: nil, releaseNotes: releaseNotes)
            if let text = versionDate, let date = RFC3339.parse(text),
                date.timeIntervalSince(now) <= HistoryEntry.releaseDateLead
            {
                release.versionDate = text
            }
            return release
        }
    }

    /// The developer (`artistId`) the roster was fetched for: another one means the host was transferred.
    public var artistId: Int
    /// The developer's name as the last roster that had one gave it (the feeds' author); nil when none did.
    public var artistName: String?
    /// When the roster it came from was fetched: an empty feed's `updated`, stable while nothing changes.
    public var at: Date
    /// Each app by trackId (the host app itself is never here).
    public var apps: [Int: App]
    /// The newest serial whose change this baseline already includes (0 before any).
    public var lastSerial: Int
    /// Each app's current release by trackId, the host app's too (never compared, so never recorded): kept here, not
    /// in the cache, so a page shows the same notes after a restart or a run from a restored cache; nil in a baseline
    /// written before it existed.
    public var releases: [Int: Release]?

    /// A baseline with every field given.
    public init(artistId: Int, at: Date, apps: [Int: App], lastSerial: Int) {
        self.artistId = artistId
        self.at = at
        self.apps = apps
        self.lastSerial = lastSerial
    }

    /// This baseline with `entries` (those newer than ``lastSerial``, in serial order) applied: the state a
    /// baseline written after them would hold.
    public func applying(_ entries: [HistoryEntry]) -> HistoryBaseline {
        var result = self
        for entry in entries where entry.serial > result.lastSerial {
            switch entry.kind {
            case .added:
                result.apps[entry.id] = App(
                    name: entry.name, platform: entry.platform, storeUrl: entry.storeUrl, iconUrl: entry.iconUrl,
                    version: entry.version, price: entry.price, formattedPrice: entry.formattedPrice)
            case .removed:
                result.apps[entry.id] = nil
            case .updated:
                result.apps[entry.id]?.version = entry.version
            case .price:
                result.apps[entry.id]?.price = entry.price
                result.apps[entry.id]?.formattedPrice = entry.formattedPrice
            }
            result.at = max(result.at, entry.at)
            result.lastSerial = entry.serial
        }
        return result
    }

    /// The baseline's file content (JSON; whole milliseconds).
    public var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return (try? encoder.encode(self)) ?? Data()
    }

    /// A baseline of no developer (`artistId` 0, which no roster has), left where a log was set aside: the next
    /// roster starts a new baseline from it, recording nothing, and serials carry on after `lastSerial`.
    public static func placeholder(lastSerial: Int, at: Date) -> HistoryBaseline {
        HistoryBaseline(artistId: 0, at: at, apps: [:], lastSerial: lastSerial)
    }

    /// Whether this is a ``placeholder(lastSerial:at:)``.
    public var isPlaceholder: Bool { artistId == 0 }

    /// The baseline a file holds, or nil when it is not one (foreign, cut, a serial outside 0…2⁵³, a time
    /// RFC 3339 cannot write).
    public init?(encoded data: Data) {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        guard let baseline = try? decoder.decode(HistoryBaseline.self, from: data),
            baseline.lastSerial >= 0, baseline.lastSerial <= HistoryEntry.maximumSerial,
            baseline.at >= RFC3339.earliest, baseline.at <= RFC3339.latest
        else { return nil }
        self = baseline
    }
}
