import FoundationEssentials

/// Campaign attribution added to store URLs at read time (`attribution.provider_token`,
/// `attribution.campaign_token`).
///
/// Applied per query rather than stored, so changing tokens needs only a reload. Apple's own query (`uo=4`) is
/// kept: dropping it changes how Apple counts the click.
public struct Attribution: Sendable, Equatable {
    /// Apple affiliate provider token (`pt`). Without it store URLs are left untouched. Default: none.
    public var providerToken: String?
    /// Campaign token (`ct`); nil means `showcase-<last bundle id component, lowercased>` of the querying host, cut
    /// to ``maximumCampaignLength`` characters. A configured token is checked by ``isAcceptedCampaignToken(_:)``.
    public var campaignToken: String?

    /// App Store Connect's ceiling for a campaign token: a longer `ct` is not counted in its analytics.
    public static let maximumCampaignLength = 30

    /// The punctuation App Store Connect accepts in a campaign token besides letters, digits and inner spaces.
    public static let campaignPunctuation: Set<Character> = Set(#"[]/\-~+=<>:;,._'"*&$%#@?!|{}()"#)

    /// Creates an attribution setting.
    public init(providerToken: String? = nil, campaignToken: String? = nil) {
        self.providerToken = providerToken
        self.campaignToken = campaignToken
    }

    /// No attribution: store URLs untouched.
    public static let disabled = Attribution()

    /// The campaign token used for `hostBundleId`: the configured one, else `showcase-<last component>`
    /// (`com.example.NoteJar` → `showcase-notejar`) cut to 30 characters, since App Store Connect ignores longer
    /// tokens and a long bundle id component would otherwise lose every click's attribution.
    public func campaign(forHost hostBundleId: String) -> String {
        if let campaignToken, !campaignToken.isEmpty { return campaignToken }
        let last = hostBundleId.split(separator: ".").last.map(String.init) ?? hostBundleId
        return String(("showcase-" + last.lowercased()).prefix(Self.maximumCampaignLength))
    }

    /// True when App Store Connect accepts `token` as a campaign token: 1 to 30 characters, each an ASCII letter or
    /// digit, a space that is neither first nor last, or one of ``campaignPunctuation``.
    public static func isAcceptedCampaignToken(_ token: String) -> Bool {
        guard !token.isEmpty, token.count <= maximumCampaignLength, token.first != " ", token.last != " " else {
            return false
        }
        return token.allSatisfy { character in
            character.isASCII
                && (character.isLetter || character.isNumber || character == " "
                    || campaignPunctuation.contains(character))
        }
    }

    /// `storeUrl` with `pt`, `ct` and `mt` added (replacing any already there) after Apple's own query items;
    /// unchanged without a provider token or when the URL does not parse. `mt` tells the OS which store opens the
    /// link: `8` for the iOS App Store, `12` for the Mac App Store, so a Mac app's link never lands on iOS.
    public func apply(to storeUrl: String, platform: Platform, hostBundleId: String) -> String {
        guard let providerToken, !providerToken.isEmpty,
            var components = URLComponents(string: storeUrl)
        else { return storeUrl }
        let ours: Set<String> = ["pt", "ct", "mt"]
        var items = (components.queryItems ?? []).filter { !ours.contains($0.name) }
        items.append(URLQueryItem(name: "pt", value: providerToken))
        items.append(URLQueryItem(name: "ct", value: campaign(forHost: hostBundleId)))
        items.append(URLQueryItem(name: "mt", value: platform.mediaType))
        components.queryItems = items
        components.percentEncodedQuery = components.percentEncodedQuery?.replacing("+", with: "%2B")
        return components.string ?? storeUrl
    }
}
