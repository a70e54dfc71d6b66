import ShowcaseCore

/// One entry of `hosts:`: an app of the developer whose roster is served, and its own curation.
///
/// Keys:
/// - `bundle_id` — string, required: the host app's bundle identifier. Discovery starts here
///   (`lookup?bundleId=…` → `artistId`) and the host never lists itself. A reverse-DNS identifier of at most
///   155 characters, never a name the export tree reserves (see `bundleIDProblem(_:)`).
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

    /// The longest `bundle_id` accepted, as App Store Connect allows.
    static let maximumBundleIDLength = 155

    /// Names a host's directory cannot have in the export tree (`v1/index.json`, `v1/icons/`), compared ignoring
    /// case like bundle ids; a leading dot (hidden files, the export's own bookkeeping) is refused as well.
    static let reservedBundleIDs: Set<String> = ["index.json", "icons"]

    /// Why `text` is not an acceptable `bundle_id`, or nil when it is: a reverse-DNS identifier, non-empty labels
    /// of ASCII letters, digits and `-` separated by dots (`com.example.NoteJar`), at most 155 characters, and not a
    /// name the export tree reserves (the host is a directory of that tree, so `index.json` would leave its
    /// documents unreachable).
    static func bundleIDProblem(_ text: String) -> String? {
        if reservedBundleIDs.contains(text.lowercased()) || text.hasPrefix(".") {
            return "'\(text)' is a name the export tree reserves (index.json, icons, or a leading dot); "
                + "write the app's bundle identifier, like com.example.NoteJar, for 'bundle_id'"
        }
        guard text.utf8.count <= maximumBundleIDLength else {
            return "a bundle identifier has at most \(maximumBundleIDLength) characters; this 'bundle_id' has "
                + "\(text.count)"
        }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.allSatisfy({ !$0.isEmpty }) else {
            return "expected a bundle identifier like com.example.NoteJar for 'bundle_id' (non-empty labels "
                + "separated by single dots), found '\(text)'"
        }
        if let bad = text.first(where: { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-")) }) {
            return "expected a bundle identifier like com.example.NoteJar for 'bundle_id' (letters, digits, '-' "
                + "and '.' only), found '\(text)' with \(bad == " " ? "a space" : "'\(bad)'")"
        }
        return nil
    }
}
