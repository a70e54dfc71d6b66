import ShowcaseCore

/// The bound on what one `updated` entry keeps of an app's release notes.
///
/// Upstream sends whatever the developer wrote (some write pages); a history of `history.keep` entries must stay
/// small enough to read per call, and a feed entry is a summary, not the changelog.
public enum ReleaseNotes {
    /// At most this many bytes of UTF-8, the mark included: the release-notes bound of decoding (SPEC §20).
    public static let maximumBytes = TextBound.releaseNotesBytes
    /// What marks notes that were cut.
    public static let cutMark = TextBound.cutMark

    /// `notes` when it fits in ``maximumBytes``; else its longest prefix of whole characters that fits with
    /// ``cutMark`` after it. Empty notes are nil.
    public static func capped(_ notes: String?) -> String? { capped(notes, toBytes: maximumBytes) }

    /// `text` when it fits in `bytes` of UTF-8; else its longest prefix of whole characters that fits with
    /// ``cutMark`` after it (``TextBound/capped(_:characters:bytes:)``), nothing at all when not even the mark
    /// fits. Empty text is nil.
    public static func capped(_ text: String?, toBytes bytes: Int) -> String? {
        guard let text, !text.isEmpty else { return nil }
        guard bytes >= cutMark.utf8.count || text.utf8.count <= bytes else { return nil }
        return TextBound.capped(text, characters: .max, bytes: bytes)
    }
}
