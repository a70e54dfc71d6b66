/// A kind of Apple device an app runs on, as a `Get` query's `device` names it and every served app lists it.
///
/// The lookup API has no such field: it lists device models (`supportedDevices`: `iPhone15-iPhone15`,
/// `iPadPro11M4-iPadPro11M4`, `Watch7-Watch7`), and ``DeviceFamilies/init(supportedDevices:)`` maps their prefixes
/// here. Without it, an iPhone is offered watch-only apps it cannot install.
public enum DeviceFamily: String, Sendable, Hashable, CaseIterable, Codable {
    /// `iPhone…` and `iPod…` models.
    case iphone
    /// `iPad…` models.
    case ipad
    /// `Watch…` models.
    case watch
    /// `AppleTV…` models.
    case tv
    /// `Reality…` and `Vision…` models (Apple Vision Pro).
    case vision
    /// `MacDesktop…`: an iOS app that also runs on Apple silicon Macs, or a Mac App Store app.
    case mac

    /// The family a `supportedDevices` entry belongs to, by its prefix; nil for a prefix not known yet.
    public init?(model: String) {
        if model.hasPrefix("iPhone") || model.hasPrefix("iPod") {
            self = .iphone
        } else if model.hasPrefix("iPad") {
            self = .ipad
        } else if model.hasPrefix("Watch") {
            self = .watch
        } else if model.hasPrefix("AppleTV") {
            self = .tv
        } else if model.hasPrefix("Reality") || model.hasPrefix("Vision") {
            self = .vision
        } else if model.hasPrefix("MacDesktop") {
            self = .mac
        } else {
            return nil
        }
    }
}
