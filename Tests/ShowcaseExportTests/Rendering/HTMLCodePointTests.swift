import Foundation
import ShowcaseCore
import Testing

@testable import ShowcaseExport

/// SPEC §20: HTML text carries no NUL, C0 control but TAB, LF and CR, DEL, C1 control or noncharacter, whatever
/// upstream or the overlay sends, so the HTML5 parser reports no `invalid-codepoint` error.
@Suite("HTML code points")
struct HTMLCodePointTests {
    /// Every code point HTML text must not carry.
    static let forbidden: [Unicode.Scalar] = {
        var values: [UInt32] = Array(0x00...0x08) + [0x0B, 0x0C] + Array(0x0E...0x1F) + Array(0x7F...0x9F)
        values += Array(0xFDD0...0xFDEF)
        for plane in UInt32(0)...16 { values += [plane << 16 | 0xFFFE, plane << 16 | 0xFFFF] }
        return values.map { Unicode.Scalar($0)! }
    }()

    /// `A`, every forbidden code point, then `B` (and TAB, LF, CR, which HTML keeps).
    static let poisoned: String = {
        var text = "A"
        text.unicodeScalars.append(contentsOf: forbidden)
        return text + "\t\n\rB\u{A0}\u{FDCF}\u{FDF0}\u{FFFD}\u{1F600}\u{10FFFD}"
    }()

    /// The forbidden code points `bytes` still holds, as hex.
    func leftovers(_ bytes: [UInt8]) -> [String] {
        let set = Set(Self.forbidden)
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.filter { set.contains($0) }
            .map { String($0.value, radix: 16) }
    }

    @Test("the escaper drops every forbidden code point and keeps every other one, TAB, LF and CR included")
    func escaper() {
        #expect(Self.forbidden.count == 62 + 32 + 34)
        var text: [UInt8] = []
        HTMLText.escaped(Self.poisoned, into: &text)
        #expect(leftovers(text).isEmpty, "\(leftovers(text))")
        #expect(text == Array("A\t\n\rB\u{A0}\u{FDCF}\u{FDF0}\u{FFFD}\u{1F600}\u{10FFFD}".utf8))
    }

    @Test("JSON-LD inside <script> drops them too and still parses to the text without them")
    func structuredData() throws {
        var text: [UInt8] = []
        let json = try JSONSerialization.data(withJSONObject: ["name": Self.poisoned])
        HTMLText.scriptSafeJSON(Array(json), into: &text)
        let bytes = text
        #expect(leftovers(bytes).isEmpty, "\(leftovers(bytes))")
        let parsed = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String]
        // JSON writes C0 controls as \u escapes, harmless in a script; the raw C1 and noncharacters are gone.
        let name = try #require(parsed?["name"])
        #expect(name.hasSuffix("\t\n\rB\u{A0}\u{FDCF}\u{FDF0}\u{FFFD}\u{1F600}\u{10FFFD}"))
        #expect(!name.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || $0.value == 0xFFFE })
    }

    @Test("the fragment and the email carry none of them in names, taglines, prices or the JSON-LD")
    func renderers() throws {
        let row = WebSamples.row(
            7, Self.poisoned, tagline: Self.poisoned, formattedPrice: Self.poisoned)
        let fragment = HTMLFragmentRenderer(tree: .standard).render(WebSamples.document([]), listings: [row])
        let email = EmailRenderer(tree: .standard).render(WebSamples.document([]), listings: [row])
        for (name, html) in [("fragment", fragment), ("email", email)] {
            #expect(!html.isEmpty, "\(name)")
            #expect(leftovers(html).isEmpty, "\(name): \(leftovers(html))")
            #expect(text(html).contains("A\t\n\rB"), "\(name)")
        }
        let app = try #require(try softwareApplications(text(fragment)).first)
        let kept = "A\t\n\rB\u{A0}\u{FDCF}\u{FDF0}\u{FFFD}\u{1F600}\u{10FFFD}"
        #expect(app["name"] as? String == kept)
        #expect(app["description"] as? String == kept)
    }
}
