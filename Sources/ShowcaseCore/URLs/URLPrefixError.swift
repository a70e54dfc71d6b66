/// A `lookup.artwork_hosts` entry that cannot be used, with the entry and one sentence on what to write instead.
public struct URLPrefixError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Why an entry was refused.
    public enum Reason: Equatable, Sendable {
        /// The empty string.
        case empty
        /// Whitespace, a control character or a character no URL holds unescaped.
        case forbiddenCharacter
        /// Not `scheme://host[:port]/path`.
        case notAPrefix
        /// `user@` before the host: a browser would contact the host after it.
        case userinfo
        /// A `?` or `#`: a prefix names a place, not a query.
        case queryOrFragment
        /// A `*` that is not the whole first label of the host.
        case misplacedWildcard
        /// `*.` followed by a single label (`https://*.com/`), which would match most of the internet.
        case wildcardTooBroad
        /// A scheme other than https, or http to a host other than `127.0.0.1`.
        case notHTTPS
    }

    /// The entry exactly as written.
    public let text: String
    /// Why it was refused.
    public let reason: Reason

    /// Creates the error for `text`.
    public init(text: String, reason: Reason) {
        self.text = text
        self.reason = reason
    }

    /// What was wrong and what to write instead.
    public var description: String {
        let shown = text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? String($0) : "?" }.joined().prefix(80)
        switch reason {
        case .empty:
            return "an artwork host prefix is empty; remove the entry or write one like https://*.mzstatic.com/"
        case .forbiddenCharacter:
            return "'\(shown)' holds whitespace, a control character or a character URLs never hold unescaped; "
                + "write a prefix like https://*.mzstatic.com/"
        case .notAPrefix:
            return "'\(shown)' is not a URL prefix: write scheme://host[:port]/path with at least the '/' after the "
                + "host, like https://*.mzstatic.com/"
        case .userinfo:
            return "'\(shown)' names a user before the host ('user@'); remove it: browsers would contact the host "
                + "after the '@'"
        case .queryOrFragment:
            return "'\(shown)' holds a query or fragment ('?' or '#'); a prefix ends in a path"
        case .misplacedWildcard:
            return "'\(shown)' has a '*' that is not the whole first label of the host; write it as "
                + "https://*.example.com/ (it matches one or more labels)"
        case .wildcardTooBroad:
            return "'\(shown)' puts '*.' before a single label, which matches a whole top-level domain; name the "
                + "domain, like https://*.mzstatic.com/"
        case .notHTTPS:
            return "'\(shown)' must use https (http is allowed only for the loopback address, "
                + "http://127.0.0.1:PORT/, for tests and the demo)"
        }
    }
}
