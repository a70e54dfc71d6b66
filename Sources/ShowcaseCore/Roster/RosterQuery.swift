import FoundationEssentials

/// What one `Roster.Get` asks for, applied to a cached ``Roster`` at read time.
///
/// Nothing here is ever written back to the roster or the cache: the same roster answers an iPhone on iOS 17,
/// a Mac, and a different host's query, and an overlay reload takes effect on the next query.
public struct RosterQuery: Sendable {
    /// The querying host's bundle id: never listed in its own answer, and the default campaign token's source.
    public var hostBundleId: String
    /// The host's `trackId` when known (from its resolved identity); excluded as well as the bundle id.
    public var hostTrackId: Int?
    /// The store asked about. Checked before the floor, so a Mac app's low floor never leaks into iOS.
    public var platform: Platform
    /// The device family asked about: only apps that run on it. Nil on the iOS store keeps the apps that run on an
    /// iPhone or an iPad, so a watch-, TV- or vision-only app is never suggested to a phone.
    public var device: DeviceFamily?
    /// Keeps every device family (the static export: a page filters by the visitor's device itself); `device` is
    /// then ignored. False for every query a client makes.
    public var everyDevice = false
    /// The device's OS version; nil applies no floor filter (the platform still applies).
    public var osVersion: OSVersion?
    /// The locale for taglines; nil uses the storefront's ``Storefront/locale``.
    public var locale: String?
    /// The operator's curation (already merged per host by the config layer).
    public var overlay: Overlay
    /// Store URL attribution.
    public var attribution: Attribution
    /// Where the answer is shown: picks the campaign token and product page (default `varlink`, a client's reply).
    public var surface: AttributionSurface = .varlink
    /// Whether the host app itself is listed too: false for every reply and document (a roster never lists its
    /// host); true only for the site's pages (SPEC §18: "no host is excluded here").
    public var includesHost = false

    /// Creates a query.
    public init(
        hostBundleId: String, hostTrackId: Int? = nil, platform: Platform, device: DeviceFamily? = nil,
        osVersion: OSVersion? = nil,
        locale: String? = nil, overlay: Overlay = .empty, attribution: Attribution = .disabled
    ) {
        self.hostBundleId = hostBundleId
        self.hostTrackId = hostTrackId
        self.platform = platform
        self.device = device
        self.osVersion = osVersion
        self.locale = locale
        self.overlay = overlay
        self.attribution = attribution
    }

    /// The answer for `roster`, in order: the host excluded, then platform, then device family, then OS floor
    /// (numerically), then the overlay (excluded hidden, pinned first), then taglines and attribution.
    public func resolve(_ roster: Roster) -> [ResolvedApp] {
        let locale = locale ?? roster.storefront.locale
        return overlay.arrange(roster.apps.filter(matches)).map { app in
            ResolvedApp(
                app: app,
                storeUrl: storeUrl(of: app),
                tagline: overlay.taglines[app.id]?.text(for: locale))
        }
    }

    /// How many apps ``resolve(_:)`` answers for `roster`, counted without resolving them (no attribution, no
    /// taglines): what Status and the metrics report for each roster, on every call.
    public func servedCount(_ roster: Roster) -> Int {
        roster.apps.count { matches($0) && !overlay.excluded.contains($0.id) }
    }

    /// Whether `app` passes the filters of ``resolve(_:)`` before the overlay: not the host, the platform, the
    /// device family, the OS floor.
    private func matches(_ app: App) -> Bool {
        (includesHost || !isHost(app)) && app.platform == platform && runsOnDevice(app)
            && osVersion.map { app.minimumOS <= $0 } != false
    }

    /// One app by id, resolved like ``resolve(_:)`` but without platform or floor filters (`GetApp` names the app
    /// explicitly); nil when the storefront does not list it, the overlay excludes it, or it is the host app: a
    /// roster never lists its host, so `GetApp` answers the host as it answers any app `Get` never serves.
    public func resolveApp(id: Int, in roster: Roster) -> ResolvedApp? {
        guard let app = roster.app(id: id), !overlay.excluded.contains(id), !isHost(app) else { return nil }
        let locale = locale ?? roster.storefront.locale
        return ResolvedApp(
            app: app,
            storeUrl: storeUrl(of: app),
            tagline: overlay.taglines[id]?.text(for: locale))
    }

    /// `app`'s store URL as ``surface`` links it: its campaign token and product page.
    public func storeUrl(of app: App) -> String {
        attribution.apply(
            to: app.storeUrl, platform: app.platform, hostBundleId: hostBundleId, on: surface,
            productPage: overlay.productPage(of: app.id, on: surface))
    }

    private func runsOnDevice(_ app: App) -> Bool {
        if everyDevice { return true }
        if let device { return app.devices.contains(DeviceFamilies(device)) }
        return platform != .ios || !app.devices.isDisjoint(with: .phoneAndPad)
    }

    private func isHost(_ app: App) -> Bool {
        app.id == hostTrackId || Self.sameBundleId(app.bundleId, hostBundleId)
    }

    /// Whether two bundle ids are equal ignoring case. Bundle ids are ASCII (letters, digits, `-`, `.`), so this
    /// folds ASCII case byte by byte: it runs for every app of every resolved roster, so it must not pay for Unicode
    /// case folding where there is none to do; the full comparison (`equalsIgnoringCase`) is left for the rare id
    /// with other characters.
    static func sameBundleId(_ left: String, _ right: String) -> Bool {
        var leftBytes = left.utf8.makeIterator()
        var rightBytes = right.utf8.makeIterator()
        while true {
            switch (leftBytes.next(), rightBytes.next()) {
            case (nil, nil):
                return true
            case (let a?, let b?):
                if a >= 0x80 || b >= 0x80 { return left.equalsIgnoringCase(right) }
                // Everything before was ASCII and equal without case, so an ASCII difference here is final.
                if a != b, a | 0x20 != b | 0x20 || !(0x61...0x7A).contains(a | 0x20) { return false }
            default:
                // One ended: unequal, unless the rest of the other holds characters that fold to it.
                let ascii = left.utf8.allSatisfy { $0 < 0x80 } && right.utf8.allSatisfy { $0 < 0x80 }
                return ascii ? false : left.equalsIgnoringCase(right)
            }
        }
    }
}
