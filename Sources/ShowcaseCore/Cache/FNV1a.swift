import FoundationEssentials

/// 64-bit FNV-1a: a fast non-cryptographic checksum for cache payloads, cheap enough to verify 175
/// storefront files at startup. (File names use ``SHA256``, where collisions must be out of reach.)
public enum FNV1a {
    /// The 64-bit FNV-1a hash of `bytes`.
    public static func hash64<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        if let hash = bytes.withContiguousStorageIfAvailable({ hash64(buffer: UnsafeRawBufferPointer($0)) }) {
            return hash
        }
        return Array(bytes).withUnsafeBytes { hash64(buffer: $0) }
    }

    /// The 64-bit FNV-1a hash of `data`, without per-byte `Data` indexing overhead.
    public static func hash64(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { hash64(buffer: $0) }
    }

    /// The hash of `data` as 16 lowercase hex digits.
    public static func hex(_ data: Data) -> String { hex(value: hash64(data)) }

    private static func hash64(buffer: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in buffer {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The hash as 16 lowercase hex digits.
    public static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        hex(value: hash64(bytes))
    }

    private static func hex(value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
