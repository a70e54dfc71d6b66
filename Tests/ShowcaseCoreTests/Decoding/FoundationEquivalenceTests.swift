import Foundation
import ShowcaseCore
import Testing

/// The helpers that stand in for Foundation's (so the shipped binaries link FoundationEssentials only, without
/// ICU) give what Foundation gives: each test asks Foundation itself, which tests may still import.
@Suite("Foundation's answers without Foundation")
struct FoundationEquivalenceTests {
    /// Paths Foundation answers for: not a one-character relative name (`a`, `a/`), on which
    /// `deletingLastPathComponent` traps (SIGILL) in Swift 6.3's Foundation, nor `//`, whose parent it says is "".
    static let paths = [
        "", "/", "/a", "/a/", "ab", "a/b", "/a/b", "/a/b/", "a//b", "//a//b//", "/etc/showcase/showcase.yaml",
        "showcase.yaml", "./showcase.yaml", "../x/y", "relative/dir/", "/a/./b", "/srv/export/",
    ]

    @Test("PathText.parent is NSString.deletingLastPathComponent", arguments: paths)
    func parent(path: String) {
        #expect(PathText.parent(of: path) == (path as NSString).deletingLastPathComponent)
    }

    @Test("PathText.parent takes what Foundation traps on: a one-character name has no directory part")
    func parentOfOneCharacter() {
        #expect(PathText.parent(of: "c") == "")
        #expect(PathText.parent(of: "c/") == "")
        #expect(PathText.parent(of: "d/c") == "d")
        #expect(PathText.parent(of: "//") == "/")
    }

    @Test(
        "PathText.appending is NSString.appendingPathComponent",
        arguments: paths + ["//", "a"], ["v1", "overlay.yaml", "sub/file", "x/", "/y"])
    func appending(path: String, component: String) {
        #expect(PathText.appending(component, to: path) == (path as NSString).appendingPathComponent(component))
    }

    static let spaced = [
        "", " ", "\t", " us ", "\tDE\t", "\u{00A0}jp\u{3000}", "\u{2003}em\u{2003}", "\n fr \n", "\r\n\t x \u{85}",
        "\u{2028}line\u{2029}", "in side", "\u{1680}a\u{202F}", "\u{205F}b\u{180E}", "\u{FEFF}c",
        "\u{200B}zero-width\u{200B}", "é\u{301} ", " \u{1F600} ",
    ]

    @Test("trimmingWhitespace is trimmingCharacters(in: .whitespaces)", arguments: spaced)
    func whitespace(text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
        #expect(text[...].trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces))
    }

    @Test("trimmingWhitespaceAndNewlines is trimmingCharacters(in: .whitespacesAndNewlines)", arguments: spaced)
    func whitespaceAndNewlines(text: String) {
        #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test(
        "equalsIgnoringCase agrees with caseInsensitiveCompare",
        arguments: [
            ("com.Example.App", "com.example.app"), ("com.example.app", "com.example.apps"), ("", ""),
            ("ÉCOLE", "école"), ("straße", "STRASSE"), ("ΣΊΣΥΦΟΣ", "σίσυφος"), ("a", "b"), ("ö", "o"),
            ("ﬁle", "FILE"),
        ])
    func caseInsensitive(left: String, right: String) {
        #expect(left.equalsIgnoringCase(right) == (left.caseInsensitiveCompare(right) == .orderedSame))
    }

    @Test(
        "HTTPDate reads what DateFormatter's \"EEE, dd MMM yyyy HH:mm:ss zzz\" read",
        arguments: [
            "Wed, 21 Oct 2015 07:28:00 GMT", "Sun, 06 Nov 1994 08:49:37 GMT", "Thu, 29 Feb 2024 23:59:59 GMT",
            "Fri, 01 Jan 2100 00:00:00 UTC", "Sat, 31 Dec 1969 12:00:00 GMT", "Tue, 07 Dec 2026 05:06:07 GMT",
            "wed, 21 oct 2015 07:28:00 gmt", "soon", "", "Wed, 21 Oct 2015 07:28 GMT", "Wed, 21 Oct 2015 25:28:00 GMT",
            "Wed, 32 Oct 2015 07:28:00 GMT", "Wed 21 Oct 2015 07:28:00 GMT", "Xyz, 21 Oct 2015 07:28:00 GMT",
            "Wed, 21 Foo 2015 07:28:00 GMT",
        ])
    func httpDate(text: String) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        #expect(HTTPDate.parse(text) == formatter.date(from: text))
    }

    @Test(
        "RFC3339.parse reads what ISO8601DateFormatter read, with or without fractional seconds",
        arguments: [
            "2026-11-29T12:00:00Z", "2026-11-29T12:00:00.5Z", "2026-11-29T12:00:00.123Z", "2026-11-29T14:00:00+02:00",
            "1969-12-31T23:59:59Z", "2026-11-29 12:00:00Z", "2026-11-29T12:00:00", "garbage", "",
        ])
    func rfc3339(text: String) {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let expected = plain.date(from: text) ?? fractional.date(from: text)
        let parsed = RFC3339.parse(text)
        #expect(
            parsed.map { ($0.timeIntervalSince1970 * 1000).rounded() }
                == expected.map { ($0.timeIntervalSince1970 * 1000).rounded() })
    }

    @Test(
        "RFC3339.seconds writes what ISO8601DateFormatter wrote", arguments: [0, 1_445_412_480.75, -1.5, 4_102_444_800])
    func rfc3339Writing(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(RFC3339.seconds(date) == ISO8601DateFormatter().string(from: date))
    }
}
