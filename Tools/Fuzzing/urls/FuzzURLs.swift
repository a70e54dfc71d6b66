// libFuzzer target: the URL rules upstream store and icon URLs pass (built only by `make fuzz`).
import Foundation
import FuzzingDriver
import ShowcaseCore

/// Any bytes as a URL — or, when there is a newline, a `lookup.artwork_hosts` entry on the first line and a URL
/// after it. Whatever the rules allow must be what they promise, checked here with plain string operations rather
/// than the rules' own parser: no whitespace, control or non-ASCII byte; a store URL on Apple's two hosts; an icon
/// URL under its prefix. Nothing may trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzURLs(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text =
        size > 0 && data != nil ? String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) : ""
    let url: String
    var rules = URLRules.standard
    if let newline = text.firstIndex(of: "\n") {
        url = String(text[text.index(after: newline)...])
        if let prefix = try? URLPrefix(parsing: String(text[..<newline])) {
            checkPrefix(prefix.text)
            rules = URLRules(artworkHosts: [prefix])
        }
    } else {
        url = text
    }
    let store = rules.allowsStoreURL(url)
    let icon = rules.allowsIconURL(url)
    precondition(rules.allows(url) == (store || icon), "allows is not the union of its two rules")
    guard store || icon else { return 0 }
    precondition(url.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }, "a forbidden byte")
    let (scheme, authority, rest) = split(url)
    precondition(!authority.contains("@"), "userinfo allowed")
    precondition(rest.hasPrefix("/"), "no path")
    if store {
        precondition(scheme == "https", "a store URL not on https")
        precondition(
            ["apps.apple.com", "itunes.apple.com", "apps.apple.com:443", "itunes.apple.com:443"].contains(authority),
            "a store URL on another host: \(url)")
    }
    if icon {
        let matched = rules.artworkHosts.contains { prefix in
            let (prefixScheme, prefixAuthority, prefixPath) = split(prefix.text)
            guard scheme == prefixScheme, rest.hasPrefix(prefixPath) else { return false }
            if prefixAuthority.hasPrefix("*.") {
                return authority.hasSuffix(prefixAuthority.dropFirst(1)) && authority.count > prefixAuthority.count - 1
            }
            return authority == prefixAuthority
        }
        precondition(matched, "an icon URL under no artwork prefix: \(url)")
    }
    return 0
}

/// A prefix the rules accepted is https, or http to the loopback address.
private func checkPrefix(_ text: String) {
    let (scheme, authority, _) = split(text)
    precondition(
        scheme == "https" || (scheme == "http" && (authority == "127.0.0.1" || authority.hasPrefix("127.0.0.1:"))),
        "a prefix neither https nor loopback http: \(text)")
}

/// Lowercased scheme, lowercased authority and the rest (from the first `/`, `?` or `#` after `://`), or empty
/// parts when there is no `://`.
private func split(_ url: String) -> (String, String, String) {
    guard let separator = url.range(of: "://") else { return ("", "", "") }
    let scheme = url[..<separator.lowerBound].lowercased()
    let after = url[separator.upperBound...]
    let end = after.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? after.endIndex
    return (scheme, after[..<end].lowercased(), String(after[end...]))
}

/// The entry point: libFuzzer's driver over `fuzzURLs` (see `FuzzingDriver`).
@_cdecl("fuzz_urls_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzingDriver.run(argc, argv, fuzzURLs)
}
