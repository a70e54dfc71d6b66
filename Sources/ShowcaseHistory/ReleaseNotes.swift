/// The bound on what one `updated` entry keeps of an app's release notes.
///
/// Upstream sends whatever the developer wrote (some write pages); a history of `history.keep` entries must stay
/// small enough to read per call, and a feed entry is a summary, not the changelog.
public enum ReleaseNotes {
    /// At most this many bytes of UTF-8, the mark included.
    public static let maximumBytes = 4096
    /// What marks notes that were cut.
    public static let cutMark = "…"

    /// `notes` when it fits in ``maximumBytes``; else its longest prefix of whole characters that fits with
    /// ``cutMark`` after it. Empty notes are nil.
    public static func capped(_ notes: String?) -> String? { capped(notes, toBytes: maximumBytes) }

    /// `text` when it fits in `bytes` of UTF-8; else its longest prefix of whole characters that fits with
    /// ``cutMark`` after it (nothing at all when not even the mark fits). Empty text is nil.
    public static func capped(_ text: String?, toBytes bytes: Int) -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard text.utf8.count > bytes else { return text }
        let budget = bytes - cutMark.utf8.count
        guard budget >= 0 else { return nil }
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let size = text[index].utf8.count
            guard used + size <= budget else { break }
            used += size
            end = text.index(after: index)
        }
        return String(text[..<end]) + cutMark
    }
}
