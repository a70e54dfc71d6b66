import FoundationEssentials

/// An app as showcased serves it: the fields of the Varlink `App` type, taken from one lookup row.
///
/// Names, genre and `formattedPrice` are served exactly as the storefront gave them (already localized,
/// "¥480", "Kostenlos"); nothing is translated or reformatted. `storeUrl` here is Apple's URL untouched;
/// attribution is added at read time by ``RosterQuery``.
///
/// The fields live in two shared records: the app itself in an ``AppRecord`` (stored once for every storefront
/// that lists it alike), its price, currency and ratings in a ``ListingRecord`` (which a real catalog gives per
/// storefront); each storefront's `App` adds only its store URL's storefront segment (24 bytes in all, see
/// ``StoreURLTemplate``). It reads and writes like a plain struct; a setter copies the record first.
public struct App: Sendable, Hashable, Codable {
    /// The fields that do not depend on the storefront, shared with every storefront's equal app.
    private(set) var record: AppRecord
    /// Price, currency, price label and ratings in this storefront, shared with every storefront's equal listing.
    private(set) var listing: ListingRecord
    /// The storefront segment of ``storeUrl`` (see ``StoreURLTemplate``); 0 when the URL has none.
    private(set) var storeSegment: StoreURLTemplate.Segment

    /// `trackId`.
    public var id: Int {
        get { record.fields.id }
        set { update(\.id, newValue) }
    }
    /// `artistId` of the developer.
    public var artistId: Int {
        get { record.fields.artistId }
        set { update(\.artistId, newValue) }
    }
    /// `trackName` as localized by the storefront.
    public var name: String {
        get { record.fields.name }
        set { update(\.name, newValue) }
    }
    /// `bundleId`.
    public var bundleId: String {
        get { record.fields.bundleId }
        set { update(\.bundleId, newValue) }
    }
    /// `primaryGenreName` as localized by the storefront.
    public var genre: String {
        get { record.fields.genre }
        set { update(\.genre, newValue) }
    }
    /// `formattedPrice` as the storefront formats it; nil when upstream omits it.
    public var formattedPrice: String? {
        get { listing.formattedPrice }
        set { updateListing(\.formattedPrice, newValue) }
    }
    /// The store, from `kind`.
    public var platform: Platform {
        get { record.fields.platform }
        set { update(\.platform, newValue) }
    }
    /// The device families it runs on, from `supportedDevices` (``DeviceFamilies/init(supportedDevices:platform:)``).
    public var devices: DeviceFamilies {
        get { record.fields.devices }
        set { update(\.devices, newValue) }
    }
    /// `minimumOsVersion` as sent (parsed once into ``minimumOS``).
    public var minimumOsVersion: String {
        get { record.fields.minimumOsVersion }
        set {
            var fields = record.fields
            fields.minimumOsVersion = newValue
            fields.minimumOS = Self.floor(newValue)
            record = AppRecord(fields)
        }
    }
    /// The largest artwork URL (`artworkUrl512`, else 100, else 60).
    public var iconUrl: String {
        get { record.fields.iconUrl }
        set { update(\.iconUrl, newValue) }
    }
    /// `trackViewUrl` as Apple sent it (with its `uo=4`), byte for byte: rebuilt from the shared template and
    /// this storefront's segment.
    public var storeUrl: String {
        get { record.fields.storeUrl.url(segment: storeSegment) }
        set {
            let template = StoreURLTemplate(splitting: newValue)
            update(\.storeUrl, template)
            storeSegment = template.ownSegment
        }
    }
    /// `price` (a float on the wire); nil when absent.
    public var price: Double? {
        get { listing.price }
        set { updateListing(\.price, newValue) }
    }
    /// `currency` (`USD`, `JPY`).
    public var currency: String? {
        get { listing.currency }
        set { updateListing(\.currency, newValue) }
    }
    /// `version`.
    public var version: String? {
        get { record.fields.version }
        set { update(\.version, newValue) }
    }
    /// `primaryGenreId` (6014 Games, 6002 Utilities): served as the `App`'s `genreId`, the same in every language,
    /// where `genre` is the storefront's localized name; the export's web fragments map it to a schema.org category.
    public var genreId: Int? {
        get { record.fields.genreId }
        set { update(\.genreId, newValue) }
    }
    /// The values of ``AppField/upstreamTexts`` this app has, by field name (`contentAdvisoryRating` → `12+`), as
    /// upstream gave them, a number in its shortest text; a field upstream left out has no entry (never an empty
    /// string).
    public var upstreamTexts: [String: String] {
        get { record.fields.upstreamTexts }
        set { update(\.upstreamTexts, newValue) }
    }
    /// `averageUserRating` (a float on the wire).
    public var averageUserRating: Double? {
        get { listing.averageUserRating }
        set { updateListing(\.averageUserRating, newValue) }
    }
    /// `userRatingCount`.
    public var userRatingCount: Int? {
        get { listing.userRatingCount }
        set { updateListing(\.userRatingCount, newValue) }
    }

    /// The parsed floor, compared numerically by the resolver; parsed once, not per query. A floor that does
    /// not parse (only possible for an `App` built by hand or decoded from elsewhere) reads as 9999, so it is
    /// hidden whenever a floor filter applies rather than shown to devices it may not run on.
    public var minimumOS: OSVersion { record.fields.minimumOS }

    static func floor(_ text: String) -> OSVersion { OSVersion(text) ?? OSVersion("9999")! }

    private mutating func update<Value>(_ field: WritableKeyPath<AppFields, Value>, _ value: Value) {
        var fields = record.fields
        fields[keyPath: field] = value
        record = AppRecord(fields)
    }

    private mutating func updateListing<Value>(_ field: WritableKeyPath<ListingFields, Value>, _ value: Value) {
        var fields = listing.fields
        fields[keyPath: field] = value
        listing = ListingRecord(fields)
    }

    private enum CodingKeys: String, CodingKey {
        case id, artistId, name, bundleId, genre, formattedPrice, platform, devices, minimumOsVersion, iconUrl
        case storeUrl, price, currency, version, averageUserRating, userRatingCount, genreId
    }

    /// Decodes the JSON form (the Varlink `App` fields plus price, currency, version, ratings and genre id); `devices`, when
    /// absent, follows the platform's default.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let platform = try c.decode(Platform.self, forKey: .platform)
        let devices = try c.decodeIfPresent([DeviceFamily].self, forKey: .devices)
        self.init(
            id: try c.decode(Int.self, forKey: .id), artistId: try c.decode(Int.self, forKey: .artistId),
            name: try c.decode(String.self, forKey: .name), bundleId: try c.decode(String.self, forKey: .bundleId),
            genre: try c.decode(String.self, forKey: .genre),
            formattedPrice: try c.decodeIfPresent(String.self, forKey: .formattedPrice),
            platform: platform,
            devices: devices.map(DeviceFamilies.init) ?? DeviceFamilies(supportedDevices: nil, platform: platform),
            minimumOsVersion: try c.decode(String.self, forKey: .minimumOsVersion),
            iconUrl: try c.decode(String.self, forKey: .iconUrl),
            storeUrl: try c.decode(String.self, forKey: .storeUrl),
            price: try c.decodeIfPresent(Double.self, forKey: .price),
            currency: try c.decodeIfPresent(String.self, forKey: .currency),
            version: try c.decodeIfPresent(String.self, forKey: .version),
            averageUserRating: try c.decodeIfPresent(Double.self, forKey: .averageUserRating),
            userRatingCount: try c.decodeIfPresent(Int.self, forKey: .userRatingCount),
            genreId: try c.decodeIfPresent(Int.self, forKey: .genreId),
            upstreamTexts: try Self.decodeTexts(from: decoder))
    }

    private static func decodeTexts(from decoder: any Decoder) throws -> [String: String] {
        guard !AppField.upstreamTexts.isEmpty else { return [:] }
        let c = try decoder.container(keyedBy: AppField.Key.self)
        var texts: [String: String] = [:]
        for field in AppField.upstreamTexts { texts[field.name] = try field.decodeStored(from: c) }
        return texts
    }

    /// Encodes the JSON form: the keys of ``init(from:)`` in that order, absent optionals left out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(artistId, forKey: .artistId)
        try c.encode(name, forKey: .name)
        try c.encode(bundleId, forKey: .bundleId)
        try c.encode(genre, forKey: .genre)
        try c.encodeIfPresent(formattedPrice, forKey: .formattedPrice)
        try c.encode(platform, forKey: .platform)
        try c.encode(devices, forKey: .devices)
        try c.encode(minimumOsVersion, forKey: .minimumOsVersion)
        try c.encode(iconUrl, forKey: .iconUrl)
        try c.encode(storeUrl, forKey: .storeUrl)
        try c.encodeIfPresent(price, forKey: .price)
        try c.encodeIfPresent(currency, forKey: .currency)
        try c.encodeIfPresent(version, forKey: .version)
        try c.encodeIfPresent(averageUserRating, forKey: .averageUserRating)
        try c.encodeIfPresent(userRatingCount, forKey: .userRatingCount)
        try c.encodeIfPresent(genreId, forKey: .genreId)
        guard !AppField.upstreamTexts.isEmpty else { return }
        var texts = encoder.container(keyedBy: AppField.Key.self)
        for field in AppField.upstreamTexts {
            if let text = upstreamTexts[field.name] { try field.encode(stored: text, into: &texts) }
        }
    }

    /// Creates an app from parts (tests, fakes).
    public init(
        id: Int, artistId: Int, name: String, bundleId: String, genre: String, formattedPrice: String?,
        platform: Platform, devices: DeviceFamilies? = nil, minimumOsVersion: String, iconUrl: String,
        storeUrl: String, price: Double? = nil, currency: String? = nil, version: String? = nil,
        averageUserRating: Double? = nil, userRatingCount: Int? = nil, genreId: Int? = nil,
        upstreamTexts: [String: String] = [:]
    ) {
        let template = StoreURLTemplate(splitting: storeUrl)
        self.init(
            record: AppRecord(
                AppFields(
                    id: id, artistId: artistId, name: name, bundleId: bundleId, genre: genre, platform: platform,
                    devices: devices ?? DeviceFamilies(supportedDevices: nil, platform: platform),
                    minimumOsVersion: minimumOsVersion, minimumOS: Self.floor(minimumOsVersion), iconUrl: iconUrl,
                    storeUrl: template, version: version, genreId: genreId, upstreamTexts: upstreamTexts)),
            listing: ListingRecord(
                ListingFields(
                    formattedPrice: formattedPrice, price: price, currency: currency,
                    averageUserRating: averageUserRating, userRatingCount: userRatingCount)),
            storeSegment: template.ownSegment)
    }

    /// An app of `record` (its own, or another storefront's equal app's) and `listing`, in the storefront whose
    /// store URL segment is `storeSegment`.
    init(record: AppRecord, listing: ListingRecord, storeSegment: StoreURLTemplate.Segment) {
        self.record = record
        self.listing = listing
        self.storeSegment = storeSegment
    }

    /// True when both use the same storage objects: what the cache decoder and the store aim for when an app is
    /// listed alike in several storefronts. Says nothing about equality when false.
    public func sharesStorage(with other: App) -> Bool { record === other.record && listing === other.listing }

    /// True when both use the same storage for the fields that do not depend on the storefront (everything but
    /// price, currency, price label and ratings): what an app listed in several currencies still shares.
    public func sharesAppRecord(with other: App) -> Bool { record === other.record }

    /// The app a row describes, or nil when the row is not one: the artist row, an unknown `kind`, or a row
    /// missing a field the reply needs (id, artist, name, bundle id, genre, a parseable floor, an icon, a store
    /// URL). Dropping such a row is deliberate: one incomplete row must not fail the whole roster.
    public init?(row: LookupRow) {
        guard !row.isArtist, let kind = row.kind, let platform = Platform(kind: kind),
            let id = row.trackId, let artistId = row.artistId,
            let name = row.trackName, !name.isEmpty,
            let bundleId = row.bundleId, !bundleId.isEmpty,
            let genre = row.primaryGenreName ?? row.genres?.first,
            let floor = row.minimumOsVersion, OSVersion(floor) != nil,
            let icon = row.artworkUrl512 ?? row.artworkUrl100 ?? row.artworkUrl60,
            let storeUrl = row.trackViewUrl, !storeUrl.isEmpty
        else { return nil }
        self.init(
            id: id, artistId: artistId, name: name, bundleId: bundleId, genre: genre,
            formattedPrice: row.formattedPrice, platform: platform,
            devices: DeviceFamilies(supportedDevices: row.supportedDevices, platform: platform),
            minimumOsVersion: floor, iconUrl: icon,
            storeUrl: storeUrl, price: row.price, currency: row.currency, version: row.version,
            averageUserRating: row.averageUserRating, userRatingCount: row.userRatingCount,
            genreId: row.primaryGenreId, upstreamTexts: row.texts)
    }

    /// True when a reply would show both apps the same: every field ``ResolvedApp/writeFields(to:)`` writes equal
    /// (``ServedValues``), so the projection is the one list of what counts. `version` and the ratings are not
    /// served, so a change in them alone is not a change of the roster. Apps sharing their records (an unchanged
    /// refresh) are the same without a look at the fields.
    public func hasSameServedFields(as other: App) -> Bool {
        if record === other.record, listing === other.listing { return storeSegment == other.storeSegment }
        return ServedValues(of: self, storeUrl: storeUrl) == ServedValues(of: other, storeUrl: other.storeUrl)
    }

    /// Equal in every field (the floor as text).
    public static func == (lhs: App, rhs: App) -> Bool {
        let sameListing = lhs.listing === rhs.listing || lhs.listing.fields == rhs.listing.fields
        if lhs.record === rhs.record { return sameListing && lhs.storeSegment == rhs.storeSegment }
        return sameListing && lhs.record.fields.sameFieldsButStoreUrl(as: rhs.record.fields)
            && lhs.sameStoreUrl(as: rhs)
    }

    /// Hashes the id, the bundle id and the store URL's segment: consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(bundleId)
        hasher.combine(storeSegment)
    }

    private func sameStoreUrl(as other: App) -> Bool {
        StoreURLTemplate.sameURL(record.fields.storeUrl, storeSegment, other.record.fields.storeUrl, other.storeSegment)
    }
}
