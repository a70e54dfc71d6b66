/// 64-bit FNV-1a: a fast non-cryptographic checksum for cache payloads, cheap enough to verify 175
/// storefront files at startup. (File names use ``SHA256``, where collisions must be out of reach.)
public enum FNV1a {
    /// The 64-bit FNV-1a hash of `bytes`.
    public static func hash64<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The hash as 16 lowercase hex digits.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let text = String(hash64(bytes), radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
