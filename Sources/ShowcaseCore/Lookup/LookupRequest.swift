import FoundationEssentials

/// The only two requests showcased ever sends upstream, as a closed enum.
///
/// The roster request's `entity=software` and `limit=200` are not parameters: without `entity=software` the
/// endpoint answers with the artist row alone (HTTP 200, valid JSON, zero apps), and without `limit` it truncates
/// to 50 rows. Making them constants means a request that triggers either failure cannot be built. `country` is
/// always the alpha-2 code, the only form the endpoint honours. A roster of a multilingual storefront's language adds
/// `lang=<language>_<storefront>` (`lang=fr_ca`); without it the storefront answers in one language only. Nothing
/// else — no client data — is ever sent.
public enum LookupRequest: Sendable, Hashable, CustomStringConvertible {
    /// `lookup?bundleId=<bundleId>&country=<cc>`: the host app's identity (its `artistId` and `trackId`).
    case identity(bundleId: String, storefront: Storefront)
    /// `lookup?id=<artistId>&entity=software&limit=200&country=<cc>[&lang=<language>_<cc>]`: everything the
    /// developer publishes in a storefront, artist row first, in `language` when one is given.
    case roster(artistId: Int, storefront: Storefront, language: RosterLanguage? = nil)

    /// The roster request's page size: the endpoint's maximum.
    public static let rosterLimit = 200

    /// The storefront the request asks about.
    public var storefront: Storefront {
        switch self {
        case .identity(_, let storefront), .roster(_, let storefront, _): storefront
        }
    }

    /// The query items in the order the replay fixtures and Apple's own links use.
    public var queryItems: [URLQueryItem] {
        switch self {
        case .identity(let bundleId, let storefront):
            [URLQueryItem(name: "bundleId", value: bundleId), URLQueryItem(name: "country", value: storefront.code)]
        case .roster(let artistId, let storefront, let language):
            [
                URLQueryItem(name: "id", value: String(artistId)),
                URLQueryItem(name: "entity", value: "software"),
                URLQueryItem(name: "limit", value: String(Self.rosterLimit)),
                URLQueryItem(name: "country", value: storefront.code),
            ] + (language.map { [URLQueryItem(name: "lang", value: $0.lookupValue(in: storefront))] } ?? [])
        }
    }

    /// The full URL against `endpoint` (`https://itunes.apple.com/lookup`, or a loopback server in tests).
    ///
    /// Any query already on the endpoint is replaced: the request carries only what the lookup needs.
    public func url(endpoint: URL) -> URL {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else { return endpoint }
        components.queryItems = queryItems
        // `+` would be read as a space by the server; bundle ids cannot contain it, but be exact anyway.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacing("+", with: "%2B")
        return components.url ?? endpoint
    }

    /// The edition a roster request fetches (nil for an identity request).
    public var edition: StorefrontEdition? {
        guard case .roster(_, let storefront, let language) = self else { return nil }
        return StorefrontEdition(storefront, language: language)
    }

    /// A short log form, e.g. `roster 1641000001/de`, `roster 1641000001/ca/fr` or `identity com.example.App/us`.
    public var description: String {
        switch self {
        case .identity(let bundleId, let storefront): "identity \(bundleId)/\(storefront.code)"
        case .roster(let artistId, let storefront, let language):
            "roster \(artistId)/\(StorefrontEdition(storefront, language: language))"
        }
    }
}
