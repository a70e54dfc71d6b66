/// Which store an app is sold in, decided by the lookup row's `kind`, never by its OS floor.
///
/// A Mac app's floor ("10.13") is numerically lower than any iOS floor, so comparing floors alone would show Mac
/// apps to iPhones. The resolver therefore checks the platform first and the floor second.
public enum Platform: String, Sendable, Hashable, CaseIterable, Codable {
    /// iOS App Store (`kind: software`): iPhone, iPad, visionOS.
    case ios
    /// Mac App Store (`kind: mac-software`).
    case macos

    /// The platform a lookup row's `kind` names, or nil for any other kind (the row is then dropped).
    public init?(kind: String) {
        switch kind {
        case "software": self = .ios
        case "mac-software": self = .macos
        default: return nil
        }
    }

    /// The `kind` value the lookup API uses for this store.
    public var kind: String {
        switch self {
        case .ios: "software"
        case .macos: "mac-software"
        }
    }

    /// The `mt` (media type) a store link carries so the OS opens the right store: `8` for iOS apps, `12` for Mac
    /// apps. Apple's own Mac links use `mt=12`; a Mac app with `mt=8` opens a dead end on macOS.
    public var mediaType: String {
        switch self {
        case .ios: "8"
        case .macos: "12"
        }
    }
}
