import ShowcaseAPI
import ShowcaseCore

/// The parameters of `showcasectl roster`, already validated, ready to become a `Roster.Get` call.
struct RosterOptions: Sendable, Equatable {
    /// `--storefront`: parsed so that `DEU`, `deu` and `de` are the same query.
    var storefront: Storefront
    /// `--host`: nil lets the daemon pick the first configured host.
    var host: String?
    /// `--platform`: nil lets the daemon apply `default_platform`.
    var platform: Platform?
    /// `--device`: nil lets the daemon keep the apps that run on an iPhone or an iPad.
    var device: DeviceFamily?
    /// `--os-version`: nil means no OS-floor filter.
    var osVersion: OSVersion?
    /// `--locale`: nil means the storefront's primary language.
    var locale: String?
    /// `--wait` in milliseconds: how long the daemon may hold the reply for a warming roster.
    var waitMilliseconds: Int?
}

extension RosterOptions {
    /// The values `--device` takes, as showcasectl(1) lists them. The daemon also accepts `mac` (iOS apps that run on
    /// Apple silicon Macs), but on the command line `--device mac` reads as "Mac apps", which are
    /// `--platform macos`: the parser says so instead of listing iOS apps.
    static let deviceChoices: [DeviceFamily] = [.iphone, .ipad, .watch, .tv, .vision]

    /// The `Roster.Get` call these options make.
    var request: RosterGetRequest {
        RosterGetRequest(
            storefront: storefront, host: host, platform: platform, device: device,
            osVersion: osVersion, locale: locale, waitMs: waitMilliseconds)
    }
}
