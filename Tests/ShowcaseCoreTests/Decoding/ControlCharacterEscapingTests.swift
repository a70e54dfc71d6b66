import ShowcaseCore
import Testing

/// `escapingControlCharacters()`: what every log line and every line of showcasectl's human output shows of text
/// from data (SPEC §17 "Logs").
@Suite("Control character escaping")
struct ControlCharacterEscapingTests {
    @Test("writes every C0 control but TAB as \\x and two lowercase hex digits")
    func c0() {
        #expect("a\u{1B}[2Jb".escapingControlCharacters() == "a\\x1b[2Jb")
        #expect("one\ntwo\rthree".escapingControlCharacters() == "one\\x0atwo\\x0dthree")
        #expect("nul\u{0}<0>forged".escapingControlCharacters() == "nul\\x00<0>forged")
        #expect("\u{7}\u{8}\u{B}\u{C}\u{1F}".escapingControlCharacters() == "\\x07\\x08\\x0b\\x0c\\x1f")
        for value in UInt32(0)...0x1F where value != 0x09 {
            let text = String(Unicode.Scalar(value)!)
            #expect(text.escapingControlCharacters().hasPrefix("\\x"), "U+\(value) was kept")
        }
    }

    @Test("keeps TAB, which separates but cannot forge a line or move the cursor elsewhere")
    func tabKept() {
        #expect("name\tprice".escapingControlCharacters() == "name\tprice")
    }

    @Test("writes DEL and every C1 control, NEL among them, as \\x and two hex digits")
    func delAndC1() {
        #expect("\u{7F}".escapingControlCharacters() == "\\x7f")
        #expect("a\u{85}b".escapingControlCharacters() == "a\\x85b")
        #expect("\u{9B}2J".escapingControlCharacters() == "\\x9b2J")
        #expect("\u{80}\u{9F}".escapingControlCharacters() == "\\x80\\x9f")
        #expect("\u{A0}".escapingControlCharacters() == "\u{A0}", "NO-BREAK SPACE is not a control character")
    }

    @Test("writes the line and paragraph separators as \\u and four hex digits")
    func separators() {
        #expect("a\u{2028}b\u{2029}c".escapingControlCharacters() == "a\\u2028b\\u2029c")
    }

    @Test("doubles a backslash, so data cannot pass itself off as an escaped control character")
    func backslash() {
        #expect("C:\\temp".escapingControlCharacters() == "C:\\\\temp")
        #expect("\\x1b".escapingControlCharacters() == "\\\\x1b")
        #expect("\u{1B}".escapingControlCharacters() != "\\x1b".escapingControlCharacters())
    }

    @Test("keeps ordinary text, accents, CJK, emoji and combining marks as they are")
    func ordinaryTextKept() {
        for text in ["NoteJar", "Café é", "メモ瓶 日本", "2,99 €", "🫙 Jar", "e\u{301}", ""] {
            #expect(text.escapingControlCharacters() == text)
        }
    }

    @Test("escapes a control character even where it joins a grapheme, as CR LF and a combining mark do")
    func scalarsNotCharacters() {
        #expect("a\r\nb".escapingControlCharacters() == "a\\x0d\\x0ab")
        #expect("\u{1B}\u{301}".escapingControlCharacters() == "\\x1b\u{301}")
    }

    @Test("leaves no control character, separator or lone backslash in what it returns")
    func nothingRawLeft() {
        let hostile = "\u{1B}]0;pwned\u{7}\n\r\u{0}\u{7F}\u{85}\u{9C}\u{2028}\u{2029}\\"
        let escaped = hostile.escapingControlCharacters()
        #expect(
            !escaped.unicodeScalars.contains {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}"
            })
        #expect(escaped == "\\x1b]0;pwned\\x07\\x0a\\x0d\\x00\\x7f\\x85\\x9c\\u2028\\u2029\\\\")
    }
}
