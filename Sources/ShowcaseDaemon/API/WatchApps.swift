import ShowcaseCore
import Varlink

#if canImport(Glibc)
    import Glibc
#endif

/// The `apps` of a `Roster.Watch` reply, encoded once: each app's `App` object as ``VarlinkAppFields`` writes it for
/// `Get` and `GetApp` too, serialized as one JSON array. Every revision's reply copies these bytes into its
/// parameters (``ReplyEncoding/watch(_:revision:apps:)``) instead of encoding the apps again, and whether a roster
/// shows the same apps as before is a comparison of bytes.
struct WatchApps: Equatable, Sendable {
    /// The JSON array of the apps' `App` objects, as ``JSONValue/serialized()`` writes it (keys sorted).
    let bytes: [UInt8]

    /// `apps` in their order, each encoded once.
    init(_ apps: [ResolvedApp]) {
        bytes = JSONValue.array(apps.map(VarlinkAppFields.object)).serialized()
    }

    /// The same storage (every stream of an unchanged roster shares one copy) compares without reading it; other
    /// bytes with one `memcmp`, cheaper than comparing the apps field by field, since every stream compares what it
    /// sent with what a change resolved.
    static func == (lhs: WatchApps, rhs: WatchApps) -> Bool {
        lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in
                guard left.count == right.count else { return false }
                guard let leftBase = left.baseAddress, let rightBase = right.baseAddress, leftBase != rightBase
                else { return true }
                return memcmp(leftBase, rightBase, left.count) == 0
            }
        }
    }
}
