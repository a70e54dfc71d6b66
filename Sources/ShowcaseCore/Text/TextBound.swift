/// The bounds on every text field of an upstream row (SPEC §20), applied where a row is decoded
/// (``LookupRow/init(from:)``), so the cache's apps, every reply, every surface and the history hold the same
/// bounded values however an upstream pads its rows.
///
/// A name, version or seller is at most ``nameCharacters`` characters — and, since one character may carry any
/// number of combining marks, also at most ``otherBytes`` bytes of UTF-8; release notes at most
/// ``releaseNotesBytes`` bytes; every other text at most ``otherBytes`` bytes. A longer text is cut on a
/// character boundary with ``cutMark`` after it, the mark counted in the bound. URLs are never cut (a cut URL
/// names another page): one longer than ``URLRules/maximumURLBytes`` fails the URL rules and its app is dropped.
public enum TextBound {
    /// The most characters a name, version or seller (`trackName`, `version`, `artistName`, `sellerName`) keeps.
    public static let nameCharacters = 255
    /// The most UTF-8 bytes release notes keep (4 KiB).
    public static let releaseNotesBytes = 4096
    /// The most UTF-8 bytes any other text keeps (1 KiB), and a name, version or seller too.
    public static let otherBytes = 1024
    /// The most UTF-8 bytes the Markdown source of a site page (`export.site.pages`, SPEC §18) may have (256 KiB):
    /// a larger file is a configuration error, and the renderer cuts anything longer. The bound keeps the worst
    /// case of the Markdown parser (cmark-gfm) to a fraction of a second per page.
    public static let markdownBytes = 256 << 10
    /// What marks a text that was cut.
    public static let cutMark = "…"

    /// `text` within ``nameCharacters`` characters and ``otherBytes`` bytes.
    public static func name(_ text: String) -> String {
        capped(text, characters: nameCharacters, bytes: otherBytes)
    }

    /// `text` within ``releaseNotesBytes`` bytes.
    public static func releaseNotes(_ text: String) -> String {
        capped(text, characters: .max, bytes: releaseNotesBytes)
    }

    /// `text` within ``otherBytes`` bytes.
    public static func other(_ text: String) -> String {
        capped(text, characters: .max, bytes: otherBytes)
    }

    /// Whether `text` is within the bounds of a name, version or seller (what ``name(_:)`` leaves unchanged).
    public static func fitsName(_ text: String) -> Bool {
        let size = text.utf8.count
        return size <= otherBytes && (size <= nameCharacters || text.count <= nameCharacters)
    }

    /// Whether `text` is within the bound of any other text (what ``other(_:)`` leaves unchanged).
    public static func fitsOther(_ text: String) -> Bool { text.utf8.count <= otherBytes }

    /// `text` when it has at most `characters` characters and `bytes` UTF-8 bytes; else its longest prefix of
    /// whole characters that fits both with ``cutMark`` after it.
    public static func capped(_ text: String, characters: Int, bytes: Int) -> String {
        let size = text.utf8.count
        // A character is at least one byte: a text this short in bytes is short in characters too.
        if size <= bytes, size <= characters { return text }
        if size <= bytes, text.count <= characters { return text }
        let markBytes = cutMark.utf8.count
        let byteBudget = bytes - markBytes
        let characterBudget = characters - 1
        var used = 0
        var kept = 0
        var end = text.startIndex
        var index = text.startIndex
        while index < text.endIndex, kept < characterBudget {
            let next = text.index(after: index)
            let characterBytes = text.utf8.distance(from: index, to: next)
            guard characterBytes <= byteBudget - used else { break }
            used += characterBytes
            kept += 1
            end = next
            index = next
        }
        return String(text[..<end]) + cutMark
    }
}
