import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// Diagnostics on disk: the error that ended a refresh, one small file per (developer, storefront) roster or
/// per (host, storefront) identity, next to — never inside — the cached roster.
///
/// A diagnostic is answered "until a refresh succeeds" (README, Troubleshooting). Held only in memory, a restart would forget
/// it and serve the untouched cached roster as fresh, hiding a changed or broken upstream again. Keeping it in
/// a separate file leaves the roster file byte for byte as it was, so the roster is there the moment upstream
/// recovers. The files are written atomically and named like the roster files (sanitized, with a digest of the
/// exact key); reading one never throws: a missing, foreign or undecodable file is a miss.
extension FileCache {
    /// A refresh that ended in a diagnostic (``LookupError/isTransport`` false), as stored on disk.
    public struct Diagnostic: Sendable, Equatable {
        /// What failed: a developer's roster, or the identity of a host (which is looked up before its
        /// developer is known, so its ``LookupError/hostAppNotFound(bundleId:storefront:)`` has no roster to
        /// belong to).
        public enum Subject: Sendable, Hashable {
            /// The roster request for developer `artistId`, in `language` for a multilingual storefront.
            case roster(artistId: Int, language: RosterLanguage? = nil)
            /// The identity request for the host app `bundleId`.
            case host(bundleId: String)
        }

        /// What failed.
        public let subject: Subject
        /// Where it failed.
        public let storefront: Storefront
        /// The diagnostic, never a transport failure.
        public let error: LookupError
        /// When the refresh failed (millisecond precision on disk). A cached roster fetched later supersedes it.
        public let recordedAt: Date

        /// A diagnostic to store, or nil when `error` is a transport failure: those say nothing about the data,
        /// the cached roster keeps being served, and so nothing about them is persisted.
        public init?(subject: Subject, storefront: Storefront, error: LookupError, recordedAt: Date) {
            guard !error.isTransport else { return nil }
            self.subject = subject
            self.storefront = storefront
            self.error = error
            self.recordedAt = recordedAt
        }
    }

    private static let diagnosticFormat = "showcase-diagnostic"
    private static let diagnosticVersion = 1

    /// The file holding the diagnostic of `subject` in `storefront`:
    /// `diagnostic-roster-<artistId>-<cc>-<digest>.json` (`…-<cc>-<language>-<digest>.json` for one language of a
    /// multilingual storefront) or `diagnostic-host-<sanitized>-<cc>-<digest>.json`.
    public func diagnosticURL(for subject: Diagnostic.Subject, storefront: Storefront) -> URL {
        let name: String
        switch subject {
        case .roster(let artistId, nil):
            let key = "diagnostic\u{0}roster\u{0}\(artistId)\u{0}\(storefront.code)"
            name = "diagnostic-roster-\(artistId)-\(storefront.code)-\(Self.digest(key)).json"
        case .roster(let artistId, let language?):
            let key = "diagnostic\u{0}roster\u{0}\(artistId)\u{0}\(storefront.code)\u{0}\(language.code)"
            name = "diagnostic-roster-\(artistId)-\(storefront.code)-\(language.code)-\(Self.digest(key)).json"
        case .host(let bundleId):
            let key = "diagnostic\u{0}host\u{0}\(bundleId)\u{0}\(storefront.code)"
            name = "diagnostic-host-\(Self.sanitize(bundleId))-\(storefront.code)-\(Self.digest(key)).json"
        }
        return directory.appendingPathComponent(name, isDirectory: false)
    }

    /// Writes `diagnostic` atomically, replacing any previous one for its subject and storefront. The cached
    /// roster is not touched.
    ///
    /// - Throws: ``CacheError`` when the directory cannot be created or written; the previous file is then
    ///   untouched.
    public func store(_ diagnostic: Diagnostic) throws(CacheError) {
        let url = diagnosticURL(for: diagnostic.subject, storefront: diagnostic.storefront)
        guard let payload = try? Self.encoder.encode(DiagnosticRecord(diagnostic)) else {
            throw CacheError(path: url.path, detail: "could not encode the diagnostic")
        }
        try writeAtomically(payload, to: url)
    }

    /// Removes the diagnostic of `subject` in `storefront` (after a successful refresh). Missing is not an error.
    public func removeDiagnostic(for subject: Diagnostic.Subject, storefront: Storefront) {
        unlink(diagnosticURL(for: subject, storefront: storefront).path)
    }

    /// Removes the diagnostics of `subject` in every storefront: a host identity, once resolved anywhere, is
    /// known everywhere, so its failures elsewhere no longer apply.
    public func removeDiagnostics(for subject: Diagnostic.Subject) {
        for diagnostic in loadAllDiagnostics() where diagnostic.subject == subject {
            removeDiagnostic(for: subject, storefront: diagnostic.storefront)
        }
    }

    /// Every usable stored diagnostic, sorted by file name, for seeding the daemon's state at startup. A file
    /// that is unreadable, not ours, of another version, describes a transport failure, or sits under another
    /// key's name is skipped (a miss) and left alone.
    public func loadAllDiagnostics() -> [Diagnostic] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix("diagnostic-") && $0.hasSuffix(".json") }.sorted().compactMap { name in
            let url = directory.appendingPathComponent(name, isDirectory: false)
            guard let data = try? RegularFile.read(path: url.path, limit: 1 << 20),
                let record = try? JSONDecoder().decode(DiagnosticRecord.self, from: data),
                let diagnostic = record.diagnostic,
                diagnosticURL(for: diagnostic.subject, storefront: diagnostic.storefront).lastPathComponent == name
            else { return nil }
            return diagnostic
        }
    }

    /// The JSON form of a ``Diagnostic``: a format tag and version, the subject (exactly one of `artistId` and
    /// `bundleId`), the storefront, the time and the error's case with its fields.
    private struct DiagnosticRecord: Codable {
        var format: String
        var version: Int
        var artistId: Int?
        var bundleId: String?
        var storefront: String
        var language: String?
        var recordedAtMilliseconds: Int64
        var error: ErrorRecord

        init(_ diagnostic: Diagnostic) {
            format = FileCache.diagnosticFormat
            version = FileCache.diagnosticVersion
            switch diagnostic.subject {
            case .roster(let artistId, let language):
                self.artistId = artistId
                self.language = language?.code
            case .host(let bundleId): self.bundleId = bundleId
            }
            storefront = diagnostic.storefront.code
            recordedAtMilliseconds = Int64((diagnostic.recordedAt.timeIntervalSince1970 * 1000).rounded())
            error = ErrorRecord(diagnostic.error)
        }

        /// The diagnostic this record describes, or nil when it is not a well-formed record of ours.
        var diagnostic: Diagnostic? {
            guard format == FileCache.diagnosticFormat, version == FileCache.diagnosticVersion,
                let storefront = try? Storefront(parsing: storefront), let error = error.lookupError
            else { return nil }
            let subject: Diagnostic.Subject
            let parsedLanguage = language.flatMap { RosterLanguage(parsing: $0) }
            guard parsedLanguage?.code == language else { return nil }
            switch (artistId, bundleId) {
            case (let artistId?, nil): subject = .roster(artistId: artistId, language: parsedLanguage)
            case (nil, let bundleId?) where language == nil: subject = .host(bundleId: bundleId)
            default: return nil
            }
            return Diagnostic(
                subject: subject, storefront: storefront, error: error,
                recordedAt: Date(timeIntervalSince1970: Double(recordedAtMilliseconds) / 1000))
        }
    }

    /// A diagnostic ``LookupError`` by case name and fields.
    private struct ErrorRecord: Codable {
        var kind: String
        var detail: String?
        var bundleId: String?
        var storefront: String?
        var resultCount: Int?

        init(_ error: LookupError) {
            switch error {
            case .malformed(let detail):
                kind = "malformed"
                self.detail = detail
            case .hostAppNotFound(let bundleId, let storefront):
                kind = "hostAppNotFound"
                self.bundleId = bundleId
                self.storefront = storefront.code
            case .missingEntityParameter(let storefront, let resultCount):
                kind = "missingEntityParameter"
                self.storefront = storefront.code
                self.resultCount = resultCount
            case .connection, .timeout, .httpStatus, .throttled:
                kind = "transport"  // never stored: Diagnostic cannot hold one; read back as a miss
            }
        }

        /// The error, or nil for an unknown case or missing fields.
        var lookupError: LookupError? {
            let parsedStorefront = storefront.flatMap { try? Storefront(parsing: $0) }
            switch (kind, detail, bundleId, parsedStorefront, resultCount) {
            case ("malformed", let detail?, _, _, _): return .malformed(detail: detail)
            case ("hostAppNotFound", _, let bundleId?, let storefront?, _):
                return .hostAppNotFound(bundleId: bundleId, storefront: storefront)
            case ("missingEntityParameter", _, _, let storefront?, let resultCount?):
                return .missingEntityParameter(storefront: storefront, resultCount: resultCount)
            default: return nil
            }
        }
    }
}
