import ShowcaseCore

/// One entry of `hosts:`: an app of the developer whose roster is served, and its own curation.
///
/// Keys:
/// - `bundle_id` — string, required: the host app's bundle identifier. Discovery starts here
///   (`lookup?bundleId=…` → `artistId`) and the host never lists itself.
/// - `app_id` — positive integer, optional: the host's `trackId`, pinning its identity.
/// - `overlay` — path (relative to the configuration file) or inline mapping, optional: this host's
///   overlay, merged over the global one (see `Overlay.merged(over:)`).
public struct HostConfiguration: Sendable, Equatable {
    /// `bundle_id` as written; compare it ignoring case (bundle ids are unique ignoring case).
    public var bundleID: String
    /// `app_id` when configured: the host's track id in replies until the identity lookup supplies one.
    public var appID: Int?
    /// The host's own overlay as written (nil when it has none), before merging with the global one.
    public var ownOverlay: Overlay?
    /// The overlay the daemon applies for this host: `ownOverlay` merged over the global overlay.
    public var overlay: Overlay
    /// The overlay file `ownOverlay` was read from, when it came from a file.
    public var overlayFile: String?

    /// Assembles a host without validating it; the loader checks `bundle_id` and `app_id` first.
    public init(
        bundleID: String, appID: Int? = nil, ownOverlay: Overlay? = nil, overlay: Overlay = .empty,
        overlayFile: String? = nil
    ) {
        self.bundleID = bundleID
        self.appID = appID
        self.ownOverlay = ownOverlay
        self.overlay = overlay
        self.overlayFile = overlayFile
    }

    static let keys = ["bundle_id", "app_id", "overlay"]

    /// `com.example.NoteJar`: letters, digits, `.` and `-`, as Apple allows in bundle identifiers.
    static func isBundleID(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix(".") && !text.hasSuffix(".")
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
    }
}
