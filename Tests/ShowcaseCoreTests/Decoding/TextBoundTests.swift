import Foundation
import ShowcaseCore
import Testing

/// SPEC §20: every text of an upstream row is bounded where the row is decoded.
@Suite("Text bounds")
struct TextBoundTests {
    @Test("a name keeps 255 characters at most, the last one …, cut on a character boundary")
    func names() {
        #expect(TextBound.name("Tide Log") == "Tide Log")
        let exact = String(repeating: "é", count: 255)
        #expect(TextBound.name(exact) == exact)
        let cut = TextBound.name(String(repeating: "🌊", count: 300))
        #expect(cut.count == 255 && cut.hasSuffix("…"))
        #expect(cut.dropLast().allSatisfy { $0 == "🌊" })
        #expect(cut.utf8.count <= 1024)
        // A family is one character of 18 bytes: the byte bound cuts first, still between whole characters.
        let families = TextBound.name(String(repeating: "👩‍👩‍👧", count: 300))
        #expect(families.utf8.count <= 1024 && families.dropLast().allSatisfy { $0 == "👩‍👩‍👧" })
    }

    @Test("one character of a thousand combining marks is bounded by bytes too")
    func combiningMarks() {
        let zalgo = "a" + String(repeating: "\u{301}", count: 1000) + "b"
        let cut = TextBound.name(zalgo)
        #expect(cut == "…")
        #expect(TextBound.fitsName(cut) && !TextBound.fitsName(zalgo))
    }

    @Test("release notes keep 4 KiB and other texts 1 KiB of UTF-8, the mark included")
    func bytes() {
        let notes = TextBound.releaseNotes(String(repeating: "ü", count: 5000))
        #expect(notes.utf8.count <= 4096 && notes.utf8.count > 4090 && notes.hasSuffix("…"))
        let other = TextBound.other(String(repeating: "x", count: 2000))
        #expect(other.utf8.count == 1024 && other.hasSuffix("…"))
        #expect(TextBound.other("Free") == "Free")
    }

    @Test("a decoded row holds its texts bounded and its over-long URLs whole for the URL rules to refuse")
    func decodedRow() throws {
        let long = String(repeating: "N", count: 1_000_000)
        let url = "https://apps.apple.com/us/app/x/id1?" + String(repeating: "a", count: 2000)
        let json: [String: Any] = [
            "trackName": long, "version": long, "artistName": long, "sellerName": long, "releaseNotes": long,
            "primaryGenreName": long, "genres": [long], "trackViewUrl": url,
        ]
        let row = try JSONDecoder().decode(LookupRow.self, from: JSONSerialization.data(withJSONObject: json))
        for name in [row.trackName, row.version, row.artistName, row.sellerName] { #expect(name?.count == 255) }
        #expect(row.releaseNotes?.utf8.count ?? 0 <= 4096)
        #expect(row.primaryGenreName?.utf8.count == 1024 && row.genres?.first?.utf8.count == 1024)
        #expect(row.trackViewUrl == url)
        #expect(!URLRules.standard.allowsStoreURL(url))
        #expect(URLRules.standard.allowsStoreURL("https://apps.apple.com/us/app/x/id1"))
    }
}
