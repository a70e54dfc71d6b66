import FoundationEssentials

/// Campaign attribution added to store URLs at read time (`attribution.provider_token`,
/// `attribution.campaign_token`, `attribution.campaign_tokens`), with an app's Custom Product Page.
///
/// Applied per query rather than stored, so changing tokens needs only a reload. Apple's own query (`uo=4`) is
/// kept: dropping it changes how Apple counts the click.
public struct Attribution: Sendable, Equatable {
    /// Apple affiliate provider token (`pt`). Without it store URLs are left untouched. Default: none.
    public var providerToken: String?
    /// Campaign token (`ct`); nil means `showcase-<last bundle id component, lowercased>` of the querying host, cut
    /// to ``maximumCampaignLength`` characters. A configured token is checked by ``isAcceptedCampaignToken(_:)``.
    public var campaignToken: String?
    /// The campaign token of a surface (SPEC §19), each checked like ``campaignToken``; a surface not named here
    /// uses ``campaignToken`` (or its default). Empty: every surface alike, as before per-surface tokens.
    public var campaignTokens: [AttributionSurface: String]

    /// App Store Connect's ceiling for a campaign token: a longer `ct` is not counted in its analytics.
    public static let maximumCampaignLength = 30

    /// The punctuation App Store Connect accepts in a campaign token besides letters, digits and inner spaces.
    public static let campaignPunctuation: Set<Character> = Set(#"[]/\-~+=<>:;,._'"*&$%#@?!|{}()"#)

    /// Creates an attribution setting.
    public init(
        providerToken: String? = nil, campaignToken: String? = nil,
        campaignTokens: [AttributionSurface: String] = [:]
    ) {
        self.providerToken = providerToken
        self.campaignToken = campaignToken
        self.campaignTokens = campaignTokens
    }

    /// No attribution: store URLs untouched.
    public static let disabled = Attribution()

    /// The campaign token used for `hostBundleId`: the configured one, else `showcase-<last component>`
    /// (`com.example.NoteJar` → `showcase-notejar`) cut to 30 characters, since App Store Connect ignores longer
    /// tokens and a long bundle id component would otherwise lose every click's attribution.
    /// On `surface`, the token of ``campaignTokens`` comes first.
    public func campaign(forHost hostBundleId: String, on surface: AttributionSurface = .varlink) -> String {
        // Checked empty first: without per-surface tokens a reply pays no hashing per app.
        if !campaignTokens.isEmpty, let token = campaignTokens[surface], !token.isEmpty { return token }
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

    /// `storeUrl` as `surface` links it: with `pt`, `ct` (the surface's campaign) and `mt` added (replacing any
    /// already there) after Apple's own query items when there is a provider token, then `ppid` when the app has a
    /// Custom Product Page (`productPage`, the id for this surface) — a product page needs no affiliate token.
    /// Unchanged with neither, or when the URL does not parse. `mt` tells the OS which store opens the link: `8`
    /// for the iOS App Store, `12` for the Mac App Store, so a Mac app's link never lands on iOS.
    public func apply(
        to storeUrl: String, platform: Platform, hostBundleId: String, on surface: AttributionSurface = .varlink,
        productPage: String? = nil
    ) -> String {
        let providerToken = self.providerToken.flatMap { $0.isEmpty ? nil : $0 }
        guard providerToken != nil || productPage != nil, var components = URLComponents(string: storeUrl)
        else { return storeUrl }
        var ours: Set<String> = providerToken == nil ? [] : ["pt", "ct", "mt"]
        if productPage != nil { ours.insert("ppid") }
        var items = (components.queryItems ?? []).filter { !ours.contains($0.name) }
        if let providerToken {
            items.append(URLQueryItem(name: "pt", value: providerToken))
            items.append(URLQueryItem(name: "ct", value: campaign(forHost: hostBundleId, on: surface)))
            items.append(URLQueryItem(name: "mt", value: platform.mediaType))
        }
        if let productPage { items.append(URLQueryItem(name: "ppid", value: productPage)) }
        components.queryItems = items
        components.percentEncodedQuery = components.percentEncodedQuery?.replacing("+", with: "%2B")
        return components.string ?? storeUrl
    }
}
