extension URLRules {
    /// True when `url` is an absolute `https:` URL of the strict shape every rule here reads (``StrictURL``): no
    /// whitespace or control character, no userinfo, a host a browser reads the same way, a path without dot
    /// segments. What a renderer asks before it puts an upstream URL in an `href` or `src` whose host it does not
    /// restrict.
    public static func isStrictHTTPS(_ url: String) -> Bool {
        StrictURL.withParsed(url) { bytes, result in
            guard case .success(let parsed) = result else { return false }
            return StrictURL.equalFolded(bytes, parsed.scheme, Array("https".utf8))
        }
    }
}
