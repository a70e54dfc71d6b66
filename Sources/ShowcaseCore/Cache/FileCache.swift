import DirectorySafety
import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The on-disk cache: one file per (developer, storefront, language) roster and one per host identity.
///
/// A roster file is a one-line JSON header (format, developer, storefront, fetch time, section lengths and
/// checksums), one line of decoded apps for fast startup, then the response body exactly as the API gave it. The fetch time lives in the payload,
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

    /// The file holding `artistId`'s roster for `storefront`: `roster-<artistId>-<cc>-<digest>.json`, or
    /// `roster-<artistId>-<cc>-<language>-<digest>.json` for one language of a multilingual storefront (the plain
    /// name is unchanged, so files written before languages existed still load).
    public func rosterURL(artistId: Int, storefront: Storefront, language: RosterLanguage? = nil) -> URL {
        directory.appendingPathComponent(
            Self.rosterFileName(artistId: artistId, storefront: storefront, language: language), isDirectory: false)
    }

    /// The name of ``rosterURL(artistId:storefront:language:)``'s file, without building a URL.
    static func rosterFileName(artistId: Int, storefront: Storefront, language: RosterLanguage? = nil) -> String {
        guard let language else {
            let key = "roster\u{0}\(artistId)\u{0}\(storefront.code)"
            return "roster-\(artistId)-\(storefront.code)-\(Self.digest(key)).json"
        }
        let key = "roster\u{0}\(artistId)\u{0}\(storefront.code)\u{0}\(language.code)"
        return "roster-\(artistId)-\(storefront.code)-\(language.code)-\(Self.digest(key)).json"
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
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "." || scalar == "-"
                    || scalar == "_")
            result.unicodeScalars.append(allowed ? scalar : "_")
        }
        if result.hasPrefix(".") { result = "_" + result.dropFirst() }
        return result.isEmpty ? "_" : result
    }

    static func digest(_ key: String) -> String { String(SHA256.hex(key).prefix(16)) }

    // MARK: Rosters

    /// Writes `roster` atomically, replacing the previous file for its (developer, storefront, `language`).
    ///
    /// The file holds three parts: a one-line header, one line of the decoded apps (so startup need not
    /// re-decode every raw body), and the body exactly as the API gave it (the authority: a full load decodes it).
    ///
    /// - Throws: ``CacheError`` when the directory cannot be created or written, or when `roster` was
    ///   ``Roster/compacted()`` (it no longer holds the body to store). The previous file is then untouched.
    public func store(_ roster: Roster, language: RosterLanguage? = nil) throws(CacheError) {
        let url = rosterURL(artistId: roster.artistId, storefront: roster.storefront, language: language)
        guard let body = roster.body else {
            throw CacheError(path: url.path, detail: "the roster was compacted and has no body to store")
        }
        let apps = Data(App.cacheRecords(roster.apps))
        let header = Header(
            format: Self.rosterFormat, version: Self.version, artistId: roster.artistId,
            storefront: roster.storefront.code, language: language?.code,
            fetchedAtMilliseconds: Self.milliseconds(roster.fetchedAt),
            resultCount: roster.resultCount, appsBytes: apps.count, appsFNV1a: FNV1a.hex(apps),
            bodyBytes: body.count, bodyFNV1a: FNV1a.hex(body))
        var payload = (try? Self.encoder.encode(header)) ?? Data()
        payload.append(UInt8(ascii: "\n"))
        payload.append(apps)
        payload.append(UInt8(ascii: "\n"))
        payload.append(body)
        try writeAtomically(payload, to: url)
    }

    /// The cached roster for (`artistId`, `storefront`, `language`) with its raw body, or nil when there is none
    /// or the file is unusable (truncated, altered, foreign, another key's file, or a body that no longer decodes).
    ///
    /// Verifies the whole payload and decodes the raw body under `urlRules` (the current `lookup.artwork_hosts`, so
    /// a file written under other rules obeys today's). `fetchedAt` round-trips with millisecond precision.
    public func loadRoster(
        artistId: Int, storefront: Storefront, language: RosterLanguage? = nil, urlRules: URLRules = .standard
    ) -> Roster? {
        let url = rosterURL(artistId: artistId, storefront: storefront, language: language)
        guard let (header, data, appsRange, bodyRange) = Self.readParts(at: url),
            header.artistId == artistId, header.storefront == storefront.code, header.language == language?.code,
            FNV1a.hex(data[appsRange]) == header.appsFNV1a, FNV1a.hex(data[bodyRange]) == header.bodyFNV1a
        else { return nil }
        return try? Roster(
            artistId: artistId, storefront: storefront, body: Data(data[bodyRange]), fetchedAt: header.fetchedAt,
            urlRules: urlRules)
    }

    /// A cached roster's header: enough to decide freshness and schedule without decoding anything else.
    public struct Entry: Sendable, Hashable {
        /// The developer.
        public var artistId: Int
        /// The storefront.
        public var storefront: Storefront
        /// The language it was fetched in; nil for a roster fetched without `lang` (and every file written before
        /// languages existed).
        public var language: RosterLanguage? = nil
        /// When the roster was fetched (from inside the payload).
        public var fetchedAt: Date
        /// `resultCount` as upstream sent it.
        public var resultCount: Int

        /// The storefront and language the roster is for.
        public var edition: StorefrontEdition { StorefrontEdition(storefront, language: language) }
    }

    /// The headers of every cached roster, reading only each file's first line (at most ``maxHeaderBytes``). Files that
    /// are not ours, or sit under another key's name, are skipped.
    public func listRosters() -> [Entry] {
        // By file name: no `URL` is built per file, since this runs for every cached roster before READY.
        // Read as a regular file only (never a FIFO's hang).
        let directoryPath = directory.path
        return rosterFileNames().compactMap { name in
            guard let head = try? RegularFile.prefix(path: directoryPath + "/" + name, count: Self.maxHeaderBytes),
                let newline = Self.firstNewline(in: head),
                let header = Self.header(from: head[head.startIndex..<newline]),
                let entry = entry(for: header, named: name)
            else { return nil }
            return entry
        }
    }

    /// The roster a listed ``Entry`` describes, decoded from its apps section: the lazy half of a startup that
    /// lists headers first (``listRosters()``) and decodes each roster when it is first needed.
    ///
    /// Returns a ``Roster/compacted()`` roster (no body in memory), or nil when the file is no longer usable or
    /// no longer the one listed: truncated, altered (length or checksum), foreign, or replaced by a newer fetch
    /// since the listing (a different fetch time or result count). Nil is a miss, as for every other read.
    ///
    /// Strings equal to the same app's in `reference` (another storefront's roster of this developer) share its
    /// storage instead of being allocated again; see ``Roster/sharingStorage(with:)``.
    ///
    /// A file written by a release before device families (15-field lines) or genre ids (16) is decoded from its
    /// raw body, which has them; if that body does not decode, its lines still do, with each platform's default
    /// families and no genre id. A file whose lines hold a text over its ``TextBound`` (planted: no decoded row
    /// has one) is a miss, like any other unreadable line.
    ///
    /// Every app must pass `urlRules` (the current `lookup.artwork_hosts`, which may have changed since the file was
    /// written): one that does not is left out and counted in ``Roster/droppedRows``; when none passes, the file is
    /// a miss (refetched, so the answer is upstream's `MalformedResponse`, never an empty roster).
    public func loadRoster(
        listed entry: Entry, sharingWith reference: Roster? = nil, urlRules: URLRules = .standard
    ) -> Roster? {
        let url = rosterURL(artistId: entry.artistId, storefront: entry.storefront, language: entry.language)
        let shared = reference?.appsByID ?? [:]
        guard let (header, data, appsRange, bodyRange) = Self.readParts(at: url),
            self.entry(for: header, at: url) == entry,
            FNV1a.hex(data[appsRange]) == header.appsFNV1a
        else { return nil }
        // Written by a release before device families or genre ids: its lines would read as each platform's
        // default (a watch-only app offered to an iPhone until the next refresh) and without a genre, so the raw
        // body, which has them, is decoded instead. Once per file: the next refresh rewrites it in this form.
        if !data[appsRange].withUnsafeBytes(App.cacheRecordsAreCurrent),
            FNV1a.hex(data[bodyRange]) == header.bodyFNV1a,
            let decoded = try? Roster(
                artistId: entry.artistId, storefront: entry.storefront, body: Data(data[bodyRange]),
                fetchedAt: entry.fetchedAt, urlRules: urlRules)
        {
            return decoded.compacted().sharingStorage(with: reference)
        }
        guard let decoded = data[appsRange].withUnsafeBytes({ App.fromCacheRecords($0, sharingWith: shared) })
        else { return nil }
        // An app sharing its record with the reference passed these rules there (same icon, same store URL but
        // for its two-letter segment): 173 storefronts of one developer are checked once, not 173 times.
        let checked = reference?.checkedURLRules == urlRules
        var dropped = DroppedRows()
        let apps = decoded.filter { app in
            if checked, let other = shared[app.id], app.sharesAppRecord(with: other) { return true }
            guard let reason = urlRules.dropReason(for: app) else { return true }
            dropped.add(reason)
            return false
        }
        if apps.isEmpty, !decoded.isEmpty { return nil }
        var roster = Roster(
            artistId: entry.artistId, storefront: entry.storefront, fetchedAt: entry.fetchedAt,
            resultCount: entry.resultCount, apps: apps, body: nil, droppedRows: dropped)
        roster.checkedURLRules = urlRules
        return roster
    }

    /// Every usable roster in the directory, decoded at once (``listRosters()`` then
    /// ``loadRoster(listed:sharingWith:urlRules:)`` for each, under `urlRules`). Unusable files are skipped and left alone. Order is unspecified.
    ///
    /// The daemon does not call this at startup — it lists headers and decodes lazily, so readiness does not
    /// wait for 175 rosters — but tools and tests that want everything in memory do.
    public func loadAllRosters(urlRules: URLRules = .standard) -> [Roster] {
        var previous: [Int: Roster] = [:]
        return listRosters().compactMap { entry in
            let roster = loadRoster(listed: entry, sharingWith: previous[entry.artistId], urlRules: urlRules)
            if let roster { previous[entry.artistId] = roster }
            return roster
        }
    }

    /// Removes the cached roster for (`artistId`, `storefront`, `language`) if present. Missing files are not an
    /// error.
    public func removeRoster(artistId: Int, storefront: Storefront, language: RosterLanguage? = nil) {
        unlink(rosterURL(artistId: artistId, storefront: storefront, language: language).path)
    }

    private func rosterFileNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix("roster-") && $0.hasSuffix(".json") }.sorted()
    }

    /// The entry a header describes, if the header is ours and the file sits under that key's name.
    private func entry(for header: Header, at url: URL) -> Entry? {
        entry(for: header, named: url.lastPathComponent)
    }

    /// The entry a header describes, if the header is ours and `name` is that key's file name.
    private func entry(for header: Header, named name: String) -> Entry? {
        guard header.format == Self.rosterFormat, header.version == Self.version, header.hasValidFetchTime,
            let storefront = try? Storefront(parsing: header.storefront)
        else { return nil }
        let language = header.language.flatMap { RosterLanguage(parsing: $0) }
        guard header.language == language?.code,
            name == Self.rosterFileName(artistId: header.artistId, storefront: storefront, language: language)
        else { return nil }
        return Entry(
            artistId: header.artistId, storefront: storefront, language: language, fetchedAt: header.fetchedAt,
            resultCount: header.resultCount)
    }

    /// Header plus the byte ranges of the apps and body sections, when the file's length matches exactly.
    ///
    /// Every number in the header comes from disk and is checked before any arithmetic: a length of
    /// `9223372036854775807` would otherwise trap on overflow and crash the daemon on every start. Such a
    /// file, like any other one that does not add up, is a miss.
    private static func readParts(at url: URL) -> (Header, Data, Range<Int>, Range<Int>)? {
        guard let data = try? RegularFile.read(path: url.path, limit: maxFileBytes),
            let newline = firstNewline(in: data),
            let header = Self.header(from: data[data.startIndex..<newline]),
            header.format == rosterFormat, header.version == version, header.hasValidFetchTime,
            let (apps, body) = sections(of: header, in: data.startIndex..<data.endIndex, afterHeaderAt: newline),
            data[apps.upperBound] == UInt8(ascii: "\n")
        else { return nil }
        return (header, data, apps, body)
    }

    /// The largest cache file read (1 GiB): far above any roster (a 200-app body is well under 1 MiB); a larger
    /// file is a miss rather than an allocation of whatever size it claims.
    static let maxFileBytes = 1 << 30

    /// The apps and body ranges a header describes, when they fit `bounds` exactly; nil for a negative or
    /// out-of-range length (never an arithmetic trap).
    static func sections(of header: Header, in bounds: Range<Int>, afterHeaderAt newline: Int)
        -> (apps: Range<Int>, body: Range<Int>)?
    {
        let start = newline + 1
        let available = bounds.upperBound - start
        guard header.appsBytes >= 0, header.bodyBytes >= 0, available >= 1,
            header.appsBytes <= available - 1, header.bodyBytes == available - 1 - header.appsBytes
        else { return nil }
        let apps = start..<(start + header.appsBytes)
        return (apps, (apps.upperBound + 1)..<bounds.upperBound)
    }

    struct Header: Codable {
        var format: String
        var version: Int
        var artistId: Int
        var storefront: String
        /// Absent in files of rosters fetched without `lang` (so those files are byte for byte what they were).
        var language: String?
        var fetchedAtMilliseconds: Int64
        var resultCount: Int
        var appsBytes: Int
        var appsFNV1a: String
        var bodyBytes: Int
        var bodyFNV1a: String

        var fetchedAt: Date { Date(timeIntervalSince1970: Double(fetchedAtMilliseconds) / 1000) }

        /// The fetch times a file may carry, in milliseconds: 1970-01-01 through 9999-12-31, every one a valid
        /// RFC 3339 time that whole-millisecond arithmetic cannot overflow. A file whose header says otherwise
        /// (`9223372036854775807`) is a miss, never a trap in a reply or the export (SPEC §20).
        static let fetchTimes: ClosedRange<Int64> = 0...253_402_300_799_999

        /// Whether ``fetchedAtMilliseconds`` lies within ``fetchTimes``.
        var hasValidFetchTime: Bool { Self.fetchTimes.contains(fetchedAtMilliseconds) }
    }

    /// The fetch time in whole milliseconds, cut, never rounded up: a roster fetched at 14:18:43.9996 must still read
    /// "14:18:43" after a restart (every reply and the export show whole seconds, cut), or a `--once` run after a CI
    /// restore rewrites index.json for nothing. The microsecond nearest the interval is cut, so a time stored as
    /// .25 that is 0.2499999 in binary stays .250.
    private static func milliseconds(_ date: Date) -> Int64 {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        return Int64((micros / 1000).rounded(.down))
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
        guard let data = try? RegularFile.read(path: identityURL(bundleId: bundleId).path, limit: 1 << 20),
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

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    // MARK: Atomic write

    /// Temporary file in the same directory (created exclusively under a fresh name), write, fsync, rename over
    /// `url`, fsync the directory: all through ``TrustedDirectory``, so nothing planted in the directory is followed
    /// or written through. Modes are the process's umask's to decide: under the unit's `UMask=0077` the cache is
    /// private to the service user (scripts/hardening-smoke.sh checks it).
    func writeAtomically(_ data: Data, to url: URL) throws(CacheError) {
        let folder: TrustedDirectory
        do {
            folder = try TrustedDirectory.open(directory.path, creating: 0o777, applyingUmask: true)
        } catch {
            throw CacheError(path: directory.path, detail: "cannot create the directory: \(error.message)")
        }
        let name = url.lastPathComponent
        let temporary = ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        if let failure = folder.create(temporary, bytes: data, mode: 0o644, applyingUmask: true) {
            throw CacheError(path: folder.child(temporary), detail: "write: \(Self.reason(failure.errno))")
        }
        if let failure = folder.syncFile(temporary) {
            _ = folder.removeFile(temporary)
            throw CacheError(path: folder.child(temporary), detail: "fsync: \(Self.reason(failure.errno))")
        }
        if let failure = folder.rename(temporary, to: name) {
            _ = folder.removeFile(temporary)
            throw CacheError(path: url.path, detail: "rename: \(Self.reason(failure.errno))")
        }
        folder.sync()
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

}
