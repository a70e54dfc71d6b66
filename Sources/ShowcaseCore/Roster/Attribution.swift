import Foundation

/// Campaign attribution added to store URLs at read time (`attribution.provider_token`,
/// `attribution.campaign_token`).
///
/// Applied per query rather than stored, so changing tokens needs only a reload. Apple's own query (`uo=4`) is
/// kept: dropping it changes how Apple counts the click.
public struct Attribution: Sendable, Equatable {
    /// Apple affiliate provider token (`pt`). Without it store URLs are left untouched. Default: none.
    public var providerToken: String?
    /// Campaign token (`ct`); nil means `showcase-<last bundle id component, lowercased>` of the querying host.
    public var campaignToken: String?

    /// Creates an attribution setting.
    public init(providerToken: String? = nil, campaignToken: String? = nil) {
        self.providerToken = providerToken
        self.campaignToken = campaignToken
    }

    /// No attribution: store URLs untouched.
    public static let disabled = Attribution()

    /// The campaign token used for `hostBundleId`: the configured one, else `showcase-<last component>`
    /// (`com.example.NoteJar` → `showcase-notejar`).
    public func campaign(forHost hostBundleId: String) -> String {
        if let campaignToken, !campaignToken.isEmpty { return campaignToken }
        let last = hostBundleId.split(separator: ".").last.map(String.init) ?? hostBundleId
        return "showcase-" + last.lowercased()
    }

    /// `storeUrl` with `pt`, `ct` and `mt=8` added (replacing any already there) after Apple's own query items;
    /// unchanged without a provider token or when the URL does not parse.
    public func apply(to storeUrl: String, hostBundleId: String) -> String {
        guard let providerToken, !providerToken.isEmpty,
            var components = URLComponents(string: storeUrl)
        else { return storeUrl }
        let ours: Set<String> = ["pt", "ct", "mt"]
        var items = (components.queryItems ?? []).filter { !ours.contains($0.name) }
        items.append(URLQueryItem(name: "pt", value: providerToken))
        items.append(URLQueryItem(name: "ct", value: campaign(forHost: hostBundleId)))
        items.append(URLQueryItem(name: "mt", value: "8"))
        components.queryItems = items
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string ?? storeUrl
    }
}
