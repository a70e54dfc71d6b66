/// The operator's curation of a roster, applied at read time: never an allowlist.
///
/// An overlay only reorders, hides and annotates: an app the developer ships tomorrow appears without an
/// overlay edit, after the pinned ones. Ids that are not in a roster (an app removed, or absent from this
/// storefront) are ignored rather than errors, because one overlay serves every storefront.
public struct Overlay: Sendable, Equatable {
    /// App ids pinned first, in this order. Ids not in the roster, and repeats, are ignored.
    public var order: [Int]
    /// App ids never shown.
    public var excluded: Set<Int>
    /// Taglines by app id: the lookup API has no subtitle field, so this is their only source.
    public var taglines: [Int: Tagline]
    /// Custom Product Pages by app id (SPEC §19): the `ppid` on that app's store URL.
    public var productPages: [Int: ProductPage]
    /// The words showcased writes itself, with the overlay's `labels` over the built-in table (SPEC §19).
    public var labels: Labels

    /// Creates an overlay.
    public init(
        order: [Int] = [], excluded: Set<Int> = [], taglines: [Int: Tagline] = [:],
        productPages: [Int: ProductPage] = [:], labels: Labels = .builtIn
    ) {
        self.order = order
        self.excluded = excluded
        self.taglines = taglines
        self.productPages = productPages
        self.labels = labels
    }

    /// The product page id of app `id` on `surface`; nil when none (at once when the overlay names none, since
    /// this runs for every app of every reply).
    public func productPage(of id: Int, on surface: AttributionSurface) -> String? {
        productPages.isEmpty ? nil : productPages[id]?.id(on: surface)
    }

    /// The empty overlay: roster order, nothing hidden, no taglines.
    public static let empty = Overlay()

    /// `apps` with excluded ids removed and pinned ids first in `order`'s order; the rest keep their relative
    /// (upstream) order. Unknown and repeated ids in `order` are ignored.
    public func arrange(_ apps: [App]) -> [App] {
        let visible = apps.filter { !excluded.contains($0.id) }
        var position: [Int: Int] = [:]
        for id in order where position[id] == nil { position[id] = position.count }
        let pinned = visible.filter { position[$0.id] != nil }.sorted { position[$0.id]! < position[$1.id]! }
        return pinned + visible.filter { position[$0.id] == nil }
    }
}
