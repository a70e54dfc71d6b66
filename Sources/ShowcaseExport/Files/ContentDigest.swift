import FoundationEssentials

/// A 64-bit hash and the length of some bytes, to tell without keeping them whether bytes rendered now are the
/// bytes written earlier.
///
/// The hash is the standard library's `Hasher` (SipHash-1-3, seeded per process): fast, and since digests live
/// only in the daemon's memory (``ExportMemory``) the per-process seed never matters. Two different documents of
/// the same length share a digest with a chance of one in 2⁶⁴.
struct ContentDigest: Equatable, Sendable {
    var hash: Int
    var count: Int

    /// The digest of `bytes`.
    init(_ bytes: Data) {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        hash = hasher.finalize()
        count = bytes.count
    }
}
