// STUB (interface contract): the core issue may extend this.

/// Which store an app is sold in, decided by the lookup row's `kind`, never by its OS floor.
public enum Platform: String, Sendable, Hashable, CaseIterable, Codable {
    /// iOS App Store (`kind: software`): iPhone, iPad, visionOS.
    case ios
    /// Mac App Store (`kind: mac-software`).
    case macos
}
