import Foundation
import ShowcaseCore

/// One exported document: a host's roster in one storefront, for one platform, as a web page reads it.
///
/// It holds only what changes with the content — no fetch time, no state — so a refresh that brings nothing
/// new gives identical bytes and the file is left alone (its mtime, and nginx's ETag, stay). The volatile part
/// lives in `index.json` (``ExportIndex``).
///
/// ```json
/// {"schema": 1, "host": …, "storefront": "de", "platform": "ios", "language": "fr"?, "revision": 3,
///  "revisedAt": "2026-11-29T14:18:43Z", "apps": [App + taglines, …]}
/// ```
public struct ExportDocument: Sendable, Hashable {
    /// The document format's version; a change that breaks readers gets a new number and a new `v<N>/` tree.
    public static let schema = 1

    /// The host app's bundle id.
    public var host: String
    /// The storefront the roster came from.
    public var storefront: Storefront
    /// The store the apps are sold in: every document lists one platform (an empty `apps` is a valid answer).
    public var platform: Platform
    /// The language the roster was fetched in (`fr` for `lang=fr_ca`); nil for a storefront fetched without one.
    public var language: String?
    /// The roster's revision: it grows by one each time the storefront's answer changes.
    public var revision: Int
    /// When that revision appeared.
    public var revisedAt: Date
    /// The apps in the order `Roster.Get` answers them, filtered by platform only.
    public var apps: [ExportedApp]

    /// A document for one (host, storefront, platform, language).
    public init(
        host: String, storefront: Storefront, platform: Platform, language: String? = nil, revision: Int,
        revisedAt: Date, apps: [ExportedApp]
    ) {
        self.host = host
        self.storefront = storefront
        self.platform = platform
        self.language = language
        self.revision = revision
        self.revisedAt = revisedAt
        self.apps = apps
    }

    /// The document's bytes: members in a fixed order, so the same content always gives the same bytes.
    public func encoded() -> Data { json.rendered() }

    var json: JSONText {
        var members: [(String, JSONText)] = [
            ("schema", .int(Self.schema)), ("host", .string(host)), ("storefront", .string(storefront.code)),
            ("platform", .string(platform.rawValue)),
        ]
        if let language { members.append(("language", .string(language))) }
        members += [
            ("revision", .int(revision)), ("revisedAt", JSONText.timestamp(revisedAt)),
            ("apps", .array(apps.map(\.json))),
        ]
        return .object(members)
    }
}
