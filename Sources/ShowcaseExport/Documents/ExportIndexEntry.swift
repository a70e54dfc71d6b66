import FoundationEssentials
import ShowcaseCore

/// One document's line in `index.json`: where it is, what it is, and how current.
public struct ExportIndexEntry: Sendable, Hashable {
    /// The document's path relative to `v1/` (`com.example.NoteJar/de/ios.json`).
    public var path: String
    /// The host app's bundle id.
    public var host: String
    /// The storefront.
    public var storefront: Storefront
    /// The platform.
    public var platform: Platform
    /// The roster's language, nil when fetched without one.
    public var language: String?
    /// The roster's state: `fresh` or `stale` for a current document; `failed`, `unavailable` or `warming` for a
    /// kept one.
    public var state: ServedState
    /// The document's revision, when known.
    public var revision: Int?
    /// When the roster was fetched, when known.
    public var fetchedAt: Date?
    /// Why the document is not current (a diagnostic), nil when it is.
    public var error: String?

    /// An entry as the writer lists it.
    public init(
        path: String, host: String, storefront: Storefront, platform: Platform, language: String?,
        state: ServedState, revision: Int?, fetchedAt: Date?, error: String?
    ) {
        self.path = path
        self.host = host
        self.storefront = storefront
        self.platform = platform
        self.language = language
        self.state = state
        self.revision = revision
        self.fetchedAt = fetchedAt
        self.error = error
    }

    var json: JSONText {
        var members: [(String, JSONText)] = [
            ("path", .string(path)), ("host", .string(host)), ("storefront", .string(storefront.code)),
            ("platform", .string(platform.rawValue)), ("language", language.map { .string($0) } ?? .null),
            ("state", .string(state.rawValue)), ("revision", revision.map { .int($0) } ?? .null),
            ("fetchedAt", fetchedAt.map(JSONText.timestamp) ?? .null),
        ]
        if let error { members.append(("error", .string(error))) }
        return .object(members)
    }
}
