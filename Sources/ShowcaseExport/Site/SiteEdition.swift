import ShowcaseCore

/// One storefront of the site in one language: a folder of pages, `<storefront>/` for the storefront's default
/// language (or a storefront fetched without one) and `<storefront>/<language>/` for each other language (SPEC §18).
struct SiteEdition: Hashable, Sendable {
    /// The storefront.
    var storefront: Storefront
    /// The language its rosters are fetched in; nil for a storefront fetched without one.
    var language: String?
    /// Whether this is the storefront's default language, whose pages sit at the storefront's own folder.
    var isDefault: Bool

    /// The folder under `site/`: `ca`, `ca/fr`.
    var folder: String {
        guard let language, !isDefault else { return storefront.code }
        return storefront.code + "/" + language
    }

    /// The pages' language as a BCP 47 tag, for `lang` and `hreflang`: the language with the storefront's region
    /// (`fr-CA`), else the storefront's own locale (`ja-JP`).
    var tag: String {
        guard let language, !language.isEmpty else { return storefront.locale }
        return language + "-" + storefront.code.uppercased()
    }

    /// Open Graph's `og:locale`, `language_TERRITORY` (`fr_CA`, `zh_CN`).
    var openGraphLocale: String {
        let primary = language ?? String(storefront.primaryLanguage.prefix { $0 != "-" })
        return primary + "_" + storefront.code.uppercased()
    }
}

/// Which page of an edition: the developer page, an app's page, or an app's support or privacy page.
enum SitePageKind: Hashable, Sendable {
    case developer
    case app(Int)
    case support(Int)
    case privacy(Int)

    /// The page's folder inside its edition's, ending in `/` (empty for the developer page).
    var subpath: String {
        switch self {
        case .developer: ""
        case .app(let id): "\(id)/"
        case .support(let id): "\(id)/support/"
        case .privacy(let id): "\(id)/privacy/"
        }
    }

    /// The kind of the page whose file is `rest` inside an edition's folder (`index.html`, `123/index.html`,
    /// `123/support/index.html`); nil for anything else (another language's folder, the `.gz`).
    init?(file rest: Substring) {
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.last == "index.html" else { return nil }
        if parts.count == 1 {
            self = .developer
            return
        }
        guard let id = Int(parts[0]), id > 0, String(id) == parts[0] else { return nil }
        switch parts.count {
        case 2: self = .app(id)
        case 3 where parts[1] == "support": self = .support(id)
        case 3 where parts[1] == "privacy": self = .privacy(id)
        default: return nil
        }
    }
}

/// A page of the site: its kind in its edition.
struct SitePage: Hashable, Sendable {
    var kind: SitePageKind
    var edition: SiteEdition

    /// Its folder under `site/`, ending in `/`: `ca/fr/123/`.
    var directory: String { edition.folder + "/" + kind.subpath }

    /// Its file under `site/`: `ca/fr/123/index.html`.
    var file: String { directory + "index.html" }

    /// How many folders deep it lies under `site/` (a relative link climbs this many).
    var depth: Int { directory.utf8.count { $0 == UInt8(ascii: "/") } }

    /// A link from this page to the folder `target` under `site/` (`us/123/`) or a file there (`showcase.css`),
    /// relative, so the site works wherever it is served.
    func link(to target: String) -> String {
        String(repeating: "../", count: depth) + target
    }
}
