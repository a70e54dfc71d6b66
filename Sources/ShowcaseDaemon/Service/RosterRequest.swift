import ShowcaseConfig
import ShowcaseCore

/// One validated roster query: what `Roster.Get`, `Roster.GetApp` and `Roster.Watch` ask for once their
/// parameters are checked against the configuration they were read with.
///
/// The raw spelling (``ReplyCache/Key``) is what the hot path keys its encoded replies by; this is what every
/// answer is computed from.
struct RosterRequest: Sendable {
    /// The configuration the parameters were checked against (host, default platform, overlay, attribution).
    var snapshot: ConfigSnapshot
    /// The storefront asked about.
    var storefront: Storefront
    /// Which of the storefront's rosters answers: the configured language matching `locale`'s language subtag,
    /// else the storefront's default (see `Configuration.edition(of:locale:)`); the plain roster for a storefront
    /// configured without `languages`.
    var edition: StorefrontEdition
    /// The querying host (the first configured one when the call named none).
    var host: HostConfiguration
    /// The store asked about.
    var platform: Platform
    /// The device family; nil keeps what runs on an iPhone or an iPad (on the iOS store).
    var device: DeviceFamily?
    /// Keeps every device family, whatever `device` says: the static export's requests only.
    var everyDevice = false
    /// Where the answer is shown, for its store URLs' campaign token and product page: `varlink` for every client
    /// call, `json` for the static export.
    var surface: AttributionSurface = .varlink
    /// The device's OS version; nil applies no floor.
    var osVersion: OSVersion?
    /// The locale for taglines; nil uses the storefront's primary language.
    var locale: String?

    /// A request for `host`'s roster in `storefront` with the configuration's defaults. `edition` names the roster
    /// outright (Status, the export); nil picks it by `locale`.
    init(
        snapshot: ConfigSnapshot, storefront: Storefront, host: HostConfiguration, platform: Platform? = nil,
        device: DeviceFamily? = nil, osVersion: OSVersion? = nil, locale: String? = nil,
        edition: StorefrontEdition? = nil
    ) {
        self.snapshot = snapshot
        self.storefront = storefront
        self.edition = edition ?? snapshot.configuration.edition(of: storefront, locale: locale)
        self.host = host
        self.platform = platform ?? snapshot.configuration.defaultPlatform
        self.device = device
        self.osVersion = osVersion
        self.locale = locale
    }

    /// The same request against a newer configuration (after waiting), keeping what the caller asked for.
    func with(_ snapshot: ConfigSnapshot) -> RosterRequest {
        var request = self
        request.snapshot = snapshot
        // A reload may have changed the storefront's languages: the edition is picked again.
        request.edition = snapshot.configuration.edition(of: storefront, locale: locale)
        if let host = snapshot.host(named: host.bundleID) { request.host = host }
        return request
    }
}
