/// One field of the served app, declared once: its wire name, its type, where upstream gives it and which surfaces
/// show it. ``all`` is the table every surface reads, in the Varlink `App` type's order:
///
/// - ``ResolvedApp/writeFields(to:)`` writes ``all`` — the Varlink `App` of `Get`, `GetApp` and `Watch`, the
///   export's documents and the served-values comparison (``App/hasSameServedFields(as:)``);
/// - ``idlType`` is the IDL's `type App` text (`ShowcaseInterfaces.roster` embeds it);
/// - an ``upstream(_:_:upstreamKey:surfaces:label:schemaOrg:comment:)`` field (a text, an integer or a number) is
///   decoded from the lookup row by its ``upstreamKey`` (``LookupRow/texts``), stored with the app as its canonical
///   text (``App/upstreamTexts``), appended to the cache line in the table's order and carried by `App`'s JSON form
///   in its own type, so its declaration here is all the code it needs;
/// - ``Surfaces/structuredData`` fields are members of the schema.org `SoftwareApplication` (fragments and the
///   site's app pages) under ``schemaOrgName``; ``Surfaces/appView`` fields are lines of `showcasectl app` under
///   ``label``.
///
/// A field's name and type are the contract (SPEC §8): the list only grows, a new field goes at the end, and an
/// optional one is left out when absent, never written as `null` or an empty string.
public struct AppField: Sendable {
    /// A field's type on every surface, as the IDL spells it.
    public enum ValueType: Sendable {
        /// An integer (`int`).
        case int
        /// A text (`string`).
        case string
        /// A number (`float`).
        case float
        /// A list of texts (`[]string`).
        case strings

        /// The IDL's spelling.
        public var idl: String {
            switch self {
            case .int: "int"
            case .string: "string"
            case .float: "float"
            case .strings: "[]string"
            }
        }
    }

    /// One field's value, in the four types.
    public enum Value: Sendable, Equatable {
        /// An `int` field's value.
        case int(Int)
        /// A `string` field's value.
        case string(String)
        /// A `float` field's value.
        case float(Double)
        /// A `[]string` field's value.
        case strings([String])
    }

    /// The types of a value upstream gives that the table stores by name (``upstream(_:_:upstreamKey:surfaces:label:schemaOrg:comment:)``).
    public enum UpstreamType: Sendable {
        /// A text (`contentAdvisoryRating`), bounded like every other upstream text (``TextBound/other(_:)``).
        case string
        /// An integer (a count, an id).
        case int
        /// A finite number (a rating).
        case float

        /// The type every surface shows it as.
        var valueType: ValueType {
            switch self {
            case .string: .string
            case .int: .int
            case .float: .float
            }
        }
    }

    /// The surfaces beyond the served `App` (Varlink replies and export documents, which show every field) that
    /// show a field of the table's: the fields the served `App` always had are named by those surfaces themselves
    /// (the schema.org object's `name`, `url`, `offers`…, `showcasectl app`'s first lines), which derive them.
    public struct Surfaces: OptionSet, Sendable {
        /// The raw bits.
        public let rawValue: Int
        /// Creates a set from its bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// A member of the schema.org `SoftwareApplication` (the fragments' `ItemList`, the site's app pages),
        /// under ``AppField/schemaOrgName``.
        public static let structuredData = Surfaces(rawValue: 1)
        /// A line of `showcasectl app`, under ``AppField/label``, after the lines it always had.
        public static let appView = Surfaces(rawValue: 2)
    }

    /// The member's name in the Varlink `App`, the export's documents and `App`'s JSON form.
    public let name: String
    /// Its type.
    public let type: ValueType
    /// True when an app may lack it (`?type` in the IDL; left out when absent).
    public let isOptional: Bool
    /// The lookup row's key it comes from; nil for a field showcased makes (the attributed store URL, the tagline).
    public let upstreamKey: String?
    /// Where it is shown besides the served `App`.
    public let surfaces: Surfaces
    /// Its label in `showcasectl app` (``Surfaces/appView``).
    public let label: String?
    /// Its schema.org property (``Surfaces/structuredData``).
    public let schemaOrgName: String?
    /// A line for the IDL above `type App`, when the name does not say enough.
    public let comment: String?
    /// The type of a value stored as upstream gives it, by name, in ``App/upstreamTexts``; nil for a field stored
    /// in a property of its own. A field with one needs no code beyond its declaration.
    public let upstreamType: UpstreamType?
    /// True for a value stored by name (``upstreamType``).
    public var isUpstreamText: Bool { upstreamType != nil }
    /// Reads the field's value from a served app.
    let read: @Sendable (ResolvedApp) -> Value?

    /// A field read from the app by `read`.
    init(
        _ name: String, _ type: ValueType, optional: Bool = false, upstreamKey: String?, surfaces: Surfaces = [],
        label: String? = nil, schemaOrg: String? = nil, comment: String? = nil,
        read: @escaping @Sendable (ResolvedApp) -> Value?
    ) {
        self.name = name
        self.type = type
        self.isOptional = optional
        self.upstreamKey = upstreamKey
        self.surfaces = surfaces
        self.label = label
        self.schemaOrgName = schemaOrg
        self.comment = comment
        self.upstreamType = nil
        self.read = read
    }

    /// An optional value of `type` upstream gives under `upstreamKey` (its name when nil), served as it is: decoded
    /// (a text bounded like every other upstream text, ``TextBound/other(_:)``; a number only when finite), stored,
    /// cached and shown by this declaration alone.
    static func upstream(
        _ name: String, _ type: UpstreamType = .string, upstreamKey: String? = nil, surfaces: Surfaces = [],
        label: String? = nil, schemaOrg: String? = nil, comment: String? = nil
    ) -> AppField {
        AppField(
            name: name, type: type, upstreamKey: upstreamKey ?? name, surfaces: surfaces, label: label,
            schemaOrg: schemaOrg, comment: comment)
    }

    private init(
        name: String, type: UpstreamType, upstreamKey: String, surfaces: Surfaces, label: String?, schemaOrg: String?,
        comment: String?
    ) {
        self.name = name
        self.type = type.valueType
        self.isOptional = true
        self.upstreamKey = upstreamKey
        self.surfaces = surfaces
        self.label = label
        self.schemaOrgName = schemaOrg
        self.comment = comment
        self.upstreamType = type
        self.read = { $0.app.upstreamTexts[name].flatMap { Self.value(stored: $0, as: type) } }
    }

    // MARK: A value stored by name

    /// The value the stored text `text` stands for as `type`; nil when it is not one (a hand-edited cache line).
    static func value(stored text: String, as type: UpstreamType) -> Value? {
        switch type {
        case .string: .string(text)
        case .int: Int(text).map(Value.int)
        case .float: Double(text).flatMap { $0.isFinite ? .float($0) : nil }
        }
    }

    /// Whether `text` is a value this field may store: the bound of upstream texts, and its type.
    func canStore(_ text: String) -> Bool {
        guard let upstreamType, TextBound.fitsOther(text) else { return false }
        return Self.value(stored: text, as: upstreamType) != nil
    }

    /// This field's value in a lookup row, by its ``upstreamKey``, as the text it is stored as; nil when the row
    /// lacks it, or has it empty, of another type or not finite.
    func upstreamText(in row: KeyedDecodingContainer<Key>) -> String? {
        guard let upstreamType, let key = upstreamKey.map({ Key($0) }) else { return nil }
        switch upstreamType {
        case .string:
            guard let text = (try? row.decodeIfPresent(String.self, forKey: key)) ?? nil, !text.isEmpty else {
                return nil
            }
            return TextBound.other(text)
        case .int:
            return ((try? row.decodeIfPresent(Int.self, forKey: key)) ?? nil).map { String($0) }
        case .float:
            guard let number = (try? row.decodeIfPresent(Double.self, forKey: key)) ?? nil, number.isFinite else {
                return nil
            }
            return String(number)
        }
    }

    /// Writes the stored `text` into `App`'s JSON form under the field's name, in its own type.
    func encode(stored text: String, into container: inout KeyedEncodingContainer<Key>) throws {
        switch upstreamType.flatMap({ Self.value(stored: text, as: $0) }) {
        case .int(let number): try container.encode(number, forKey: Key(name))
        case .float(let number): try container.encode(number, forKey: Key(name))
        default: try container.encode(text, forKey: Key(name))
        }
    }

    /// Reads the field from `App`'s JSON form, as the text it is stored as; nil when absent.
    func decodeStored(from container: KeyedDecodingContainer<Key>) throws -> String? {
        switch upstreamType {
        case .int: try container.decodeIfPresent(Int.self, forKey: Key(name)).map { String($0) }
        case .float: try container.decodeIfPresent(Double.self, forKey: Key(name)).map { String($0) }
        case .string, nil: try container.decodeIfPresent(String.self, forKey: Key(name))
        }
    }
}

extension AppField {
    /// Every field of the served `App`, in the IDL's order. A new field goes at the end.
    public static let all: [AppField] = [
        AppField("id", .int, upstreamKey: "trackId") { .int($0.app.id) },
        AppField("artistId", .int, upstreamKey: "artistId") { .int($0.app.artistId) },
        AppField("name", .string, upstreamKey: "trackName") { .string($0.app.name) },
        AppField("bundleId", .string, upstreamKey: "bundleId") { .string($0.app.bundleId) },
        AppField("genre", .string, upstreamKey: "primaryGenreName") { .string($0.app.genre) },
        AppField("formattedPrice", .string, optional: true, upstreamKey: "formattedPrice") {
            $0.app.formattedPrice.map(Value.string)
        },
        AppField("price", .float, optional: true, upstreamKey: "price") { $0.app.price.map(Value.float) },
        AppField("currency", .string, optional: true, upstreamKey: "currency") { $0.app.currency.map(Value.string) },
        AppField("platform", .string, upstreamKey: "kind") { .string($0.app.platform.rawValue) },
        AppField("devices", .strings, upstreamKey: "supportedDevices") { .strings($0.app.devices.names) },
        AppField("minimumOsVersion", .string, upstreamKey: "minimumOsVersion") { .string($0.app.minimumOsVersion) },
        AppField("iconUrl", .string, upstreamKey: "artworkUrl512") { .string($0.app.iconUrl) },
        AppField("storeUrl", .string, upstreamKey: nil) { .string($0.storeUrl) },
        AppField("tagline", .string, optional: true, upstreamKey: nil) { $0.tagline.map(Value.string) },
        AppField(
            "genreId", .int, optional: true, upstreamKey: "primaryGenreId",
            comment: "genreId: the App Store id of genre (6014 Games, 6002 Utilities), alike in every storefront"
                + " and language"
        ) { $0.app.genreId.map(Value.int) },
        .upstream(
            "contentAdvisoryRating", surfaces: [.structuredData, .appView], label: "age rating",
            schemaOrg: "contentRating",
            comment: "contentAdvisoryRating: the App Store's age rating (4+, 9+, 12+, 17+) as the storefront gives it"),
    ]

    /// The fields stored by name in ``App/upstreamTexts`` (each one's ``upstreamType``), in the table's order: the
    /// order of the cache line's fields after its first 17.
    public static let upstreamTexts: [AppField] = all.filter(\.isUpstreamText)

    /// The schema.org members of `app` (``Surfaces/structuredData``), in the table's order: property and value.
    public static func structuredData(of app: ResolvedApp) -> [(name: String, value: Value)] {
        all.compactMap { field in
            guard field.surfaces.contains(.structuredData), let name = field.schemaOrgName,
                let value = field.value(of: app)
            else { return nil }
            return (name, value)
        }
    }

    /// The field's value in `app`, as every surface shows it; nil when the app lacks it.
    public func value(of app: ResolvedApp) -> Value? { read(app) }

    /// A field's name, or its upstream key, as a coding key: how `App`'s JSON form and ``LookupRow`` read and write
    /// the table's upstream texts.
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// The field named `name`, if the table has one.
    public static func named(_ name: String) -> AppField? { all.first { $0.name == name } }

    /// The IDL's `type App` declaration: the fields' comments, then the type, wrapped under its opening parenthesis
    /// at 100 columns (as the rest of the interface text is, without its indentation).
    public static var idlType: String {
        var lines = all.compactMap(\.comment).map { "# " + $0 }
        let opening = "type App ("
        let indent = String(repeating: " ", count: opening.count)
        var line = opening
        for (index, field) in all.enumerated() {
            let last = index == all.count - 1
            let member = "\(field.name): \(field.isOptional ? "?" : "")\(field.type.idl)" + (last ? ")" : ",")
            if line != opening, line != indent, line.count + 1 + member.count > 100 {
                lines.append(line)
                line = indent
            }
            line += (line == opening || line == indent ? "" : " ") + member
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
