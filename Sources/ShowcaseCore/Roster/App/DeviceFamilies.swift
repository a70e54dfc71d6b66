/// The device families one app runs on: a byte per app, since 175 storefronts × 200 apps stay in memory.
public struct DeviceFamilies: OptionSet, Sendable, Hashable, Codable {
    /// One bit per ``DeviceFamily``, in `allCases` order.
    public let rawValue: UInt8

    /// The set with these bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The set holding one family.
    public init(_ family: DeviceFamily) {
        self.init(rawValue: 1 << UInt8(DeviceFamily.allCases.firstIndex(of: family)!))
    }

    /// The set holding `families`.
    public init(_ families: some Sequence<DeviceFamily>) {
        self = families.reduce(into: DeviceFamilies()) { $0.insert(DeviceFamilies($1)) }
    }

    /// iPhone and iPad: what a `software` row without `supportedDevices` (or with only unknown models) counts as,
    /// since an iOS app runs on both unless it says otherwise.
    public static let phoneAndPad = DeviceFamilies([.iphone, .ipad])

    /// What a Mac App Store row runs on.
    public static let macOnly = DeviceFamilies(.mac)

    /// The families of a row's `supportedDevices` for `platform`: a Mac App Store row is always ``macOnly``; an iOS
    /// row maps each model's prefix, and counts as ``phoneAndPad`` when nothing maps (field absent, or only models
    /// of a device Apple introduced after this table, which ``unknownModels(in:)`` reports).
    public init(supportedDevices: [String]?, platform: Platform) {
        guard platform == .ios else {
            self = .macOnly
            return
        }
        let mapped = DeviceFamilies((supportedDevices ?? []).compactMap(DeviceFamily.init(model:)))
        self = mapped.isEmpty ? .phoneAndPad : mapped
    }

    /// The model names in `supportedDevices` lists that map to no family, without repeats: a new Apple device.
    public static func unknownModels(in lists: some Sequence<[String]?>) -> Set<String> {
        var unknown: Set<String> = []
        for list in lists {
            for model in list ?? [] where DeviceFamily(model: model) == nil { unknown.insert(model) }
        }
        return unknown
    }

    /// The families in ``DeviceFamily/allCases`` order, as `devices` lists them (`["iphone", "ipad"]`).
    public var families: [DeviceFamily] { DeviceFamily.allCases.filter { contains(DeviceFamilies($0)) } }

    /// The wire names of ``families``: one shared array per set, so an app's `devices`, written into every reply
    /// and export document, costs no allocation.
    public var names: [String] { Self.namesBySet[Int(rawValue)] }

    /// ``names`` of every possible set, indexed by its bits.
    private static let namesBySet: [[String]] = (0...Int(UInt8.max)).map {
        DeviceFamilies(rawValue: UInt8($0)).families.map(\.rawValue)
    }

    /// Decodes the JSON form, a list of family names (`["iphone", "ipad"]`).
    public init(from decoder: any Decoder) throws {
        self.init(try [DeviceFamily](from: decoder))
    }

    /// Encodes the JSON form, a list of family names.
    public func encode(to encoder: any Encoder) throws { try families.encode(to: encoder) }
}
