import FoundationEssentials

/// One entry of `lookup.artwork_hosts`: a URL prefix an app's icon URL may start with, such as
/// `https://*.mzstatic.com/`.
///
/// Compared by parts, never as text, so `https://mzstatic.com.evil/` cannot pass for `https://*.mzstatic.com/`: the
/// scheme and the host must be equal (case-insensitively), the port must be the one written (none matches none
/// only), and the URL's path must start with the prefix's path byte for byte. A leading `*.` label matches one or
/// more DNS labels: `https://*.mzstatic.com/` matches `is1-ssl.mzstatic.com` and `a.b.mzstatic.com`, never
/// `mzstatic.com` itself.
public struct URLPrefix: Sendable, Hashable, CustomStringConvertible {
    /// The prefix as configured.
    public let text: String
    /// `https`, or `http` for the loopback host only; lowercase bytes.
    let scheme: [UInt8]
    /// True when the host started with `*.`.
    let wildcard: Bool
    /// The host without its `*.` label, lowercase bytes.
    let host: [UInt8]
    /// The port as written, nil when none is.
    let port: Int?
    /// The bytes the URL's path must start with: `/` at least.
    let path: [UInt8]

    /// The default and only entry of `lookup.artwork_hosts` unless configured: Apple's image CDN.
    public static let appleArtwork = try! URLPrefix(parsing: "https://*.mzstatic.com/")

    /// The one host `http` is allowed for: the loopback address tests and the demo serve icons from.
    static let loopback = "127.0.0.1"

    /// Parses a configured prefix.
    ///
    /// - Throws: ``URLPrefixError`` when `text` is empty, holds whitespace or control characters, is not
    ///   `scheme://host[:port]/path`, has userinfo, a query or a fragment, a `*` anywhere but as a whole leading label
    ///   with at least two labels after it, or a scheme other than https (http only for `127.0.0.1`).
    public init(parsing text: String) throws(URLPrefixError) {
        func fail(_ reason: URLPrefixError.Reason) -> URLPrefixError { URLPrefixError(text: text, reason: reason) }
        guard !text.isEmpty else { throw fail(.empty) }
        var candidate = text
        var wildcard = false
        if let star = text.firstIndex(of: "*") {
            guard let separator = text.firstRange(of: "://"), star == separator.upperBound,
                text[text.index(after: star)...].hasPrefix("."), text.filter({ $0 == "*" }).count == 1
            else { throw fail(.misplacedWildcard) }
            // A placeholder label, so the rest parses like any URL.
            candidate.replaceSubrange(star...star, with: "x")
            wildcard = true
        }
        let parsed = StrictURL.withParsed(candidate) { bytes, result in
            result.map { url in
                (
                    scheme: Array(bytes[url.scheme]).map { $0 | 0x20 }, host: Array(bytes[url.host]).map { $0 | 0x20 },
                    port: url.port, rest: Array(bytes[url.rest])
                )
            }
        }
        let url: (scheme: [UInt8], host: [UInt8], port: Int?, rest: [UInt8])
        switch parsed {
        case .success(let parts): url = parts
        case .failure(.forbiddenCharacter): throw fail(.forbiddenCharacter)
        case .failure(.userinfo): throw fail(.userinfo)
        case .failure: throw fail(.notAPrefix)
        }
        if url.rest.contains(UInt8(ascii: "?")) || url.rest.contains(UInt8(ascii: "#")) { throw fail(.queryOrFragment) }
        let host = wildcard ? Array(url.host.dropFirst(2)) : url.host
        if wildcard, !host.contains(UInt8(ascii: ".")) { throw fail(.wildcardTooBroad) }
        switch String(decoding: url.scheme, as: UTF8.self) {
        case "https": break
        case "http" where !wildcard && host == Array(Self.loopback.utf8): break
        default: throw fail(.notHTTPS)
        }
        self.text = text
        self.scheme = url.scheme
        self.wildcard = wildcard
        self.host = host
        self.port = url.port
        self.path = url.rest
    }

    /// True when `url` (parsed from `bytes`) starts with this prefix, compared by parts.
    func matches(_ url: StrictURL, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard url.port == port, StrictURL.equalFolded(bytes, url.scheme, scheme),
            StrictURL.hasPrefix(bytes, url.rest, path)
        else { return false }
        guard wildcard else { return StrictURL.equalFolded(bytes, url.host, host) }
        // At least one whole label before ".<host>": valid labels are never empty, so a byte before the dot is one.
        let suffixStart = url.host.upperBound - host.count
        return suffixStart - 1 > url.host.lowerBound && bytes[suffixStart - 1] == UInt8(ascii: ".")
            && StrictURL.equalFolded(bytes, suffixStart..<url.host.upperBound, host)
    }

    /// ``text``.
    public var description: String { text }
}
