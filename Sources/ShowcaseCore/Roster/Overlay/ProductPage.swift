/// An app's Custom Product Page (overlay `product_pages`, SPEC §19): the `ppid` added to its store URL on every
/// surface, or on some surfaces only.
public struct ProductPage: Sendable, Hashable {
    /// The page for every surface without its own; nil leaves those surfaces without `ppid`.
    public var everySurface: String?
    /// The page for one surface, overriding ``everySurface`` there.
    public var bySurface: [AttributionSurface: String]

    /// A product page: `everySurface` everywhere, `bySurface` where named. UUIDs as ``isUUID(_:)`` accepts them.
    public init(everySurface: String? = nil, bySurface: [AttributionSurface: String] = [:]) {
        self.everySurface = everySurface
        self.bySurface = bySurface
    }

    /// The page's id on `surface`, or nil when that surface links the default product page.
    public func id(on surface: AttributionSurface) -> String? { bySurface[surface] ?? everySurface }

    /// True for a UUID as App Store Connect shows a product page's id: 8-4-4-4-12 hexadecimal digits.
    public static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return false }
        return groups.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isHexDigit } }
    }
}
