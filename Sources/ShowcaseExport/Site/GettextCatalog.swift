/// The messages of a GNU gettext `.mo` file: msgid → msgstr, read from bytes nobody vouched for.
///
/// The format is a header of 32-bit words in the file's byte order (the magic `0x950412de` says which), the number
/// of strings, and two tables of (length, offset) pairs pointing at the originals and the translations. Every count,
/// offset and length is checked against the file's size with arithmetic that cannot overflow, so a truncated or
/// hostile file gives fewer (or no) messages, never a trap or a read out of bounds.
enum GettextCatalog {
    /// The messages of `bytes`: each plain msgid with its translation (the first form of a plural); the header
    /// (empty msgid), messages with a context, and entries out of bounds or not UTF-8 are left out. Empty when
    /// `bytes` is not a `.mo` file.
    static func messages(_ bytes: [UInt8]) -> [String: String] {
        guard let magic = word(bytes, at: 0, bigEndian: false) else { return [:] }
        let bigEndian: Bool
        switch magic {
        case 0x9504_12de: bigEndian = false
        case 0xde12_0495: bigEndian = true
        default: return [:]
        }
        guard let count = word(bytes, at: 8, bigEndian: bigEndian),
            let originals = word(bytes, at: 12, bigEndian: bigEndian),
            let translations = word(bytes, at: 16, bigEndian: bigEndian),
            fits(table: originals, count: count, in: bytes.count),
            fits(table: translations, count: count, in: bytes.count)
        else { return [:] }
        var messages: [String: String] = [:]
        for index in 0..<count {
            guard let original = string(bytes, entry: originals + index * 8, bigEndian: bigEndian),
                !original.isEmpty, !original.contains("\u{4}"),
                let translation = string(bytes, entry: translations + index * 8, bigEndian: bigEndian),
                !translation.isEmpty
            else { continue }
            let msgid = original.prefix { $0 != "\0" }
            let msgstr = translation.prefix { $0 != "\0" }
            guard !msgstr.isEmpty else { continue }
            messages[String(msgid)] = String(msgstr)
        }
        return messages
    }

    /// Whether a table of `count` 8-byte entries at `offset` lies inside `size` bytes (compared without overflow).
    private static func fits(table offset: Int, count: Int, in size: Int) -> Bool {
        offset <= size && count <= (size - offset) / 8
    }

    /// The string a table entry at `entry` points at; nil when the entry or the string lies outside `bytes`.
    private static func string(_ bytes: [UInt8], entry: Int, bigEndian: Bool) -> String? {
        guard let length = word(bytes, at: entry, bigEndian: bigEndian),
            let offset = word(bytes, at: entry + 4, bigEndian: bigEndian),
            offset <= bytes.count, length <= bytes.count - offset
        else { return nil }
        return String(validating: bytes[offset..<offset + length], as: UTF8.self)
    }

    /// The 32-bit word at `offset` in the given byte order; nil past the end.
    private static func word(_ bytes: [UInt8], at offset: Int, bigEndian: Bool) -> Int? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let b = bytes[offset..<offset + 4].map { UInt32($0) }
        let value = bigEndian ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
        return Int(value)
    }
}
