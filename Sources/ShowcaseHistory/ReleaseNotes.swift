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
    public static func capped(_ notes: String?) -> String? {
        guard let notes, !notes.isEmpty else { return nil }
        guard notes.utf8.count > maximumBytes else { return notes }
        let budget = maximumBytes - cutMark.utf8.count
        var used = 0
        var end = notes.startIndex
        for index in notes.indices {
            let size = notes[index].utf8.count
            guard used + size <= budget else { break }
            used += size
            end = notes.index(after: index)
        }
        return String(notes[..<end]) + cutMark
    }
}
