import ShowcaseCore

/// What one mirrored icon is fetched for: an app's artwork URL (`iconUrl`, as the roster gives it) at one square
/// pixel size. The unit of "at most one request" (SPEC §16): however many documents, storefronts or hosts list the
/// app, one key is one request.
struct IconKey: Hashable, Sendable, Comparable {
    /// The app's `iconUrl`.
    var source: String
    /// One of `export.icons.sizes`.
    var size: Int

    /// The URL fetched: `source` with its last segment asking for ``size`` (nil when its shape does not allow it).
    var url: String? { IconURL.sized(source, to: size) }

    /// Whether ``url`` is not nil, without building it.
    var canBeFetched: Bool { size > 0 && IconURL.canBeSized(source) }

    static func < (lhs: IconKey, rhs: IconKey) -> Bool { (lhs.source, lhs.size) < (rhs.source, rhs.size) }
}
