import FoundationEssentials
import ShowcaseCore

/// One exported document: a host's roster in one storefront, for one platform, as a web page reads it.
///
/// It holds only what changes with the content — no fetch time, no state — so a refresh that brings nothing
/// new gives identical bytes and the file is left alone (its mtime, and nginx's ETag, stay). The volatile part
/// lives in `index.json` (``ExportIndex``).
///
/// ```json
/// {"schema": 1, "host": …, "storefront": "de", "platform": "ios", "language": "fr"?, "revision": 3,
///  "revisedAt": "2026-11-29T14:18:43Z", "locale": "de-DE", "labels": {"app_link": "{name}, {store}"},
///  "apps": [App + taglines, …]}
/// ```
///
/// `locale` is the document's BCP 47 tag (``webLanguage``: `fr-CA`, `ar-SA`), what the widget sets as the block's
/// `lang` and reads its direction from; `labels` holds the words the widget writes itself in that language
/// (SPEC §19), the overlay's `labels` applied, so it names each row as the fragment does.
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
    /// The document's revision: it grows by one each time its content changes — its apps, or the labels it carries
    /// (the writer keeps it in the document for
    /// ``ExportRoster/Content-swift.enum/latest(apps:now:)``).
    public var revision: Int
    /// When that revision appeared.
    public var revisedAt: Date
    /// The apps in the order `Roster.Get` answers them, filtered by platform only.
    public var apps: [ExportedApp]
    /// The words written in the document's language: the built-in table under the overlay's `labels`.
    public var labels: Labels

    /// A document for one (host, storefront, platform, language).
    public init(
        host: String, storefront: Storefront, platform: Platform, language: String? = nil, revision: Int,
        revisedAt: Date, apps: [ExportedApp], labels: Labels = .builtIn
    ) {
        self.host = host
        self.storefront = storefront
        self.platform = platform
        self.language = language
        self.revision = revision
        self.revisedAt = revisedAt
        self.apps = apps
        self.labels = labels
    }

    /// The document's bytes: members in a fixed order, so the same content always gives the same bytes.
    public func encoded() -> Data { json(apps: .rendered(renderedApps())).rendered() }

    /// The document's bytes around `apps`, the text ``renderedApps()`` gave for this document's apps: the writer
    /// renders the apps once and tries them under more than one revision.
    func encoded(renderedApps apps: [UInt8]) -> Data { json(apps: .rendered(apps)).rendered() }

    /// The `apps` array's text, as it stands in the document (at the indent of a top-level member).
    func renderedApps() -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(apps.count * 1024)
        JSONText.writeArray(apps, indent: 2, into: &text) { app, text, indent in app.write(to: &text, indent: indent) }
        return text
    }

    private func json(apps: JSONText) -> JSONText {
        var members: [(String, JSONText)] = [
            ("schema", .int(Self.schema)), ("host", .string(host)), ("storefront", .string(storefront.code)),
            ("platform", .string(platform.rawValue)),
        ]
        if let language { members.append(("language", .string(language))) }
        // After `revision`: overlay text may stand in `labels`, and the header reader trusts what comes before.
        let locale = webLanguage
        members += [
            ("revision", .int(revision)), ("revisedAt", JSONText.timestamp(revisedAt)), ("locale", .string(locale)),
            ("labels", .object([(LabelKey.appLink.rawValue, .string(labels.template(.appLink, language: locale)))])),
            ("apps", apps),
        ]
        return .object(members)
    }
}
