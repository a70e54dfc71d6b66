/// Which upstream URLs may reach a reply, a document or a page: the check every app passes before it is served.
///
/// The lookup API is an untrusted peer (a proxy, a poisoned cache or a compromised upstream can send anything), and
/// every URL it sends ends up in an `href` or `src` somewhere. So a store URL must be an App Store page —
/// `https://apps.apple.com/…` or `https://itunes.apple.com/…`, that exact host in any case, no userinfo, no port but
/// 443 — and an icon URL must start with one of `lookup.artwork_hosts` (``URLPrefix``). Both are parsed strictly
/// (``StrictURL``): no whitespace or control characters, no `javascript:` or `data:`, no host a lenient parser and a
/// browser would read differently. Neither may be longer than ``maximumURLBytes`` (SPEC §20: no upstream text is
/// unbounded, and a URL cannot be cut as text is). An app that fails is dropped with one of the two reasons below.
public struct URLRules: Sendable, Hashable {
    /// The prefixes an icon URL may start with (`lookup.artwork_hosts`); never empty in a configuration.
    public let artworkHosts: [URLPrefix]

    /// Rules allowing icons under `artworkHosts`.
    public init(artworkHosts: [URLPrefix]) {
        self.artworkHosts = artworkHosts
    }

    /// The rules of the default configuration: icons from `https://*.mzstatic.com/` only.
    public static let standard = URLRules(artworkHosts: [.appleArtwork])

    /// The longest store or icon URL served, in UTF-8 bytes (1 KiB; Apple's are under 300). A longer one fails the
    /// rules rather than being cut, since a cut URL names another page.
    public static let maximumURLBytes = 1024

    /// The hosts a store URL may name, as lowercase bytes.
    static let storeHosts = [Array("apps.apple.com".utf8), Array("itunes.apple.com".utf8)]
    private static let https = Array("https".utf8)

    /// The drop reason of an app whose store URL fails ``allowsStoreURL(_:)``.
    public static let foreignStoreURL = "with a store URL not on https://apps.apple.com/ or https://itunes.apple.com/"
    /// The drop reason of an app whose icon URL fails ``allowsIconURL(_:)``.
    public static let foreignIconURL = "with an icon URL outside lookup.artwork_hosts"

    /// True when `url` is an App Store page: https, host `apps.apple.com` or `itunes.apple.com` (any case), no
    /// userinfo, no port or 443, a path.
    public func allowsStoreURL(_ url: String) -> Bool {
        guard url.utf8.count <= Self.maximumURLBytes else { return false }
        return StrictURL.withParsed(url) { bytes, result in
            guard case .success(let parsed) = result, parsed.port == nil || parsed.port == 443,
                StrictURL.equalFolded(bytes, parsed.scheme, Self.https)
            else { return false }
            return Self.storeHosts.contains { StrictURL.equalFolded(bytes, parsed.host, $0) }
        }
    }

    /// True when `url` starts with one of ``artworkHosts`` and is at most ``maximumURLBytes`` long.
    public func allowsIconURL(_ url: String) -> Bool {
        guard url.utf8.count <= Self.maximumURLBytes else { return false }
        return StrictURL.withParsed(url) { bytes, result in
            guard case .success(let parsed) = result else { return false }
            return artworkHosts.contains { $0.matches(parsed, in: bytes) }
        }
    }

    /// True when `url` may be served as either: a store URL or an icon URL (what a fuzzer or a renderer that does
    /// not know which it holds can ask).
    public func allows(_ url: String) -> Bool { allowsStoreURL(url) || allowsIconURL(url) }

    /// Why `app` must not be served (``foreignStoreURL`` or ``foreignIconURL``), or nil when both its URLs pass.
    ///
    /// Reads the store URL's shared template rather than ``App/storeUrl``: the storefront segment is two ASCII
    /// letters in every storefront's URL, so the verdict is the same, and the cache decoder, which checks every app
    /// of every storefront, builds no URL string per app.
    public func dropReason(for app: App) -> String? {
        let fields = app.record.fields
        if !allowsStoreURL(fields.storeUrl.text) { return Self.foreignStoreURL }
        if !allowsIconURL(fields.iconUrl) { return Self.foreignIconURL }
        return nil
    }
}
