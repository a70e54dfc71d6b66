import Foundation

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The on-disk cache: one file per (developer, storefront) roster and one per host identity.
///
/// A roster file is a one-line JSON header (format, developer, storefront, fetch time, body length and
/// checksum) followed by the response body exactly as the API gave it. The fetch time lives in the payload,
/// never in the file's mtime (which backups and `cp` rewrite). Writes are atomic — temporary file, fsync,
/// rename, fsync of the directory — so a crash or `kill -9` mid-write leaves the previous file intact. Reads
/// never throw: a missing, truncated, foreign or undecodable file is a miss, and the daemon refetches.
///
/// File names are derived, never taken from input: a sanitized readable part plus a SHA-256 prefix of the
/// exact key, so no key can contain a path separator, escape the directory, or collide with another key that
/// sanitizes alike.
public struct FileCache: Sendable {
    /// `cache.directory` (default `$CACHE_DIRECTORY`, else `/var/cache/showcase` as root, else
    /// `$XDG_CACHE_HOME/showcase`). Created on first write if missing.
    public let directory: URL

    /// A cache over `directory`. Nothing is touched until the first read or write.
    public init(directory: URL) {
        self.directory = directory
    }

    private static let rosterFormat = "showcase-roster"
    private static let identityFormat = "showcase-identity"
    private static let version = 1

    // MARK: File names

    /// The file holding `artistId`'s roster for `storefront`: `roster-<artistId>-<cc>-<digest>.json`.
    public func rosterURL(artistId: Int, storefront: Storefront) -> URL {
        let key = "roster\u{0}\(artistId)\u{0}\(storefront.code)"
        let name = "roster-\(artistId)-\(storefront.code)-\(Self.digest(key)).json"
        return directory.appendingPathComponent(name, isDirectory: false)
    }

    /// The file holding the identity of host `bundleId`: `identity-<sanitized>-<digest>.json`.
    public func identityURL(bundleId: String) -> URL {
        let name = "identity-\(Self.sanitize(bundleId))-\(Self.digest("identity\u{0}" + bundleId)).json"
        return directory.appendingPathComponent(name, isDirectory: false)
    }

    /// A readable, safe file name part: ASCII letters, digits, `.`, `-` and `_` kept, everything else `_`, no
    /// leading dot, at most 64 characters. Lossy by design; the digest makes the name unique.
    public static func sanitize(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(64) {
            let allowed =
                scalar.isASCII
                && (CharacterSet.alphanumerics.contains(scalar) || scalar == "." || scalar == "-" || scalar == "_")
            result.unicodeScalars.append(allowed ? scalar : "_")
        }
        if result.hasPrefix(".") { result = "_" + result.dropFirst() }
        return result.isEmpty ? "_" : result
    }

    private static func digest(_ key: String) -> String { String(SHA256.hex(key).prefix(16)) }

    // MARK: Rosters

    /// Writes `roster` atomically, replacing the previous file for its (developer, storefront).
    ///
    /// - Throws: ``CacheError`` when the directory cannot be created or written, or when `roster` was
    ///   ``Roster/compacted()`` (it no longer holds the body to store). The previous file is then untouched.
    public func store(_ roster: Roster) throws(CacheError) {
        let url = rosterURL(artistId: roster.artistId, storefront: roster.storefront)
        guard let body = roster.body else {
            throw CacheError(path: url.path, detail: "the roster was compacted and has no body to store")
        }
        let header = Header(
            format: Self.rosterFormat, version: Self.version, artistId: roster.artistId,
            storefront: roster.storefront.code, fetchedAtMilliseconds: Self.milliseconds(roster.fetchedAt),
            bodyBytes: body.count, bodyFNV1a: FNV1a.hex(body))
        var payload = (try? Self.encoder.encode(header)) ?? Data()
        payload.append(UInt8(ascii: "\n"))
        payload.append(body)
        try writeAtomically(payload, to: url)
    }

    /// The cached roster for (`artistId`, `storefront`), or nil when there is none or the file is unusable.
    ///
    /// `fetchedAt` round-trips with millisecond precision.
    public func loadRoster(artistId: Int, storefront: Storefront) -> Roster? {
        guard let roster = Self.readRoster(at: rosterURL(artistId: artistId, storefront: storefront)),
            roster.artistId == artistId, roster.storefront == storefront
        else { return nil }
        return roster
    }

    /// Every usable roster in the directory, decoded in parallel: what the daemon serves from at startup,
    /// before any network request. Unusable files are skipped (and left alone). Order is unspecified.
    public func loadAllRosters() -> [Roster] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let urls = names.filter { $0.hasPrefix("roster-") && $0.hasSuffix(".json") }.map {
            directory.appendingPathComponent($0, isDirectory: false)
        }
        let results = ResultSlots<Roster>(count: urls.count)
        DispatchQueue.concurrentPerform(iterations: urls.count) { index in
            guard let roster = Self.readRoster(at: urls[index]),
                urls[index].lastPathComponent
                    == rosterURL(artistId: roster.artistId, storefront: roster.storefront).lastPathComponent
            else { return }
            results.set(index, roster)
        }
        return results.values
    }

    /// Removes the cached roster for (`artistId`, `storefront`) if present. Missing files are not an error.
    public func removeRoster(artistId: Int, storefront: Storefront) {
        unlink(rosterURL(artistId: artistId, storefront: storefront).path)
    }

    private static func readRoster(at url: URL) -> Roster? {
        guard let data = try? Data(contentsOf: url, options: .mappedIfSafe),
            let newline = data.firstIndex(of: UInt8(ascii: "\n")),
            let header = try? JSONDecoder().decode(Header.self, from: data[data.startIndex..<newline]),
            header.format == rosterFormat, header.version == version,
            let storefront = try? Storefront(parsing: header.storefront)
        else { return nil }
        let body = Data(data[(newline + 1)...])
        guard body.count == header.bodyBytes, FNV1a.hex(body) == header.bodyFNV1a else { return nil }
        let fetchedAt = Date(timeIntervalSince1970: Double(header.fetchedAtMilliseconds) / 1000)
        return try? Roster(artistId: header.artistId, storefront: storefront, body: body, fetchedAt: fetchedAt)
    }

    private struct Header: Codable {
        var format: String
        var version: Int
        var artistId: Int
        var storefront: String
        var fetchedAtMilliseconds: Int64
        var bodyBytes: Int
        var bodyFNV1a: String
    }

    private static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    // MARK: Host identities

    /// Writes `identity` atomically under its bundle id.
    public func store(_ identity: HostIdentity) throws(CacheError) {
        let url = identityURL(bundleId: identity.bundleId)
        let record = IdentityRecord(format: Self.identityFormat, version: Self.version, identity: identity)
        guard let payload = try? Self.encoder.encode(record) else {
            throw CacheError(path: url.path, detail: "could not encode the identity")
        }
        try writeAtomically(payload, to: url)
    }

    /// The cached identity of host `bundleId` (exact spelling), or nil when there is none or it is unusable.
    public func loadIdentity(bundleId: String) -> HostIdentity? {
        guard let data = try? Data(contentsOf: identityURL(bundleId: bundleId)),
            let record = try? JSONDecoder().decode(IdentityRecord.self, from: data),
            record.format == Self.identityFormat, record.version == Self.version,
            record.identity.bundleId == bundleId
        else { return nil }
        return record.identity
    }

    private struct IdentityRecord: Codable {
        var format: String
        var version: Int
        var identity: HostIdentity
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    // MARK: Atomic write

    /// Temporary file in the same directory, write, fsync, rename over `url`, fsync the directory.
    private func writeAtomically(_ data: Data, to url: URL) throws(CacheError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CacheError(path: directory.path, detail: "cannot create the directory")
        }
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp", isDirectory: false
        ).path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Self.failure("open", temporary) }
        var failure: CacheError?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = Self.failure("write", temporary)
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = Self.failure("fsync", temporary) }
        close(fd)
        if failure == nil, rename(temporary, url.path) != 0 { failure = Self.failure("rename", url.path) }
        if let failure {
            unlink(temporary)
            throw failure
        }
        let directoryFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }

    private static func failure(_ call: String, _ path: String) -> CacheError {
        CacheError(path: path, detail: "\(call): \(String(cString: strerror(errno)))")
    }
}

/// Fixed slots written concurrently, one per index, read once all writers finished.
private final class ResultSlots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Value) { lock.withLock { slots[index] = value } }

    var values: [Value] { lock.withLock { slots.compactMap { $0 } } }
}
