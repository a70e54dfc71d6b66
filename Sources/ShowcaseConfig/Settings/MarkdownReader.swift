import FoundationEssentials
import ShowcaseCore

/// Reads the Markdown files of `export.site.pages` for one load: each path once, within the bounds.
struct MarkdownReader {
    let base: String
    /// Files already read, by resolved path (a privacy policy shared by every app is read once).
    var read: [String: MarkdownSource] = [:]
    var totalBytes = 0

    init(base: String) { self.base = base }

    /// The file named at `node` (the key `key`), or nil after reporting why it cannot be used.
    mutating func read(_ node: YAMLNode, key: String, diagnostics: inout ConfigDiagnostics) -> MarkdownSource? {
        guard let text = diagnostics.string(node, key, expected: "a Markdown file like support.md") else {
            return nil
        }
        let path = ConfigLoader.resolve(text, relativeTo: base)
        if let source = read[path] { return source }
        let limit = TextBound.markdownBytes
        let bytes: Data
        do {
            bytes = try RegularFile.read(path: path, limit: limit)
        } catch {
            switch error.reason {
            case .tooLarge:
                diagnostics.report(
                    .limitExceeded, at: node,
                    "'\(key)': '\(path)' is larger than \(limit >> 10) KiB, the limit for a page's Markdown")
            default:
                diagnostics.report(.unreadable, at: node, "'\(key)': \(error.description)")
            }
            return nil
        }
        guard totalBytes <= SiteSettings.maximumPagesBytes - bytes.count else {
            diagnostics.report(
                .limitExceeded, at: node,
                "'\(key)': '\(path)' brings the Markdown of 'export.site.pages' over "
                    + "\(SiteSettings.maximumPagesBytes >> 20) MiB in all; shorten the pages or share one file")
            return nil
        }
        guard let markdown = String(validating: bytes, as: UTF8.self) else {
            diagnostics.report(
                .invalidValue, at: node, "'\(key)': '\(path)' is not UTF-8 text; save it as UTF-8")
            return nil
        }
        totalBytes += bytes.count
        let source = MarkdownSource(path: path, text: markdown)
        read[path] = source
        return source
    }
}

/// One app's entry of `export.site.pages`: its support and privacy pages, each optional.
public struct SitePages: Sendable, Equatable {
    /// `support:` — the support page's Markdown.
    public var support: MarkdownSource?
    /// `privacy:` — the privacy policy's Markdown.
    public var privacy: MarkdownSource?

    /// Pages from their parts.
    public init(support: MarkdownSource? = nil, privacy: MarkdownSource? = nil) {
        self.support = support
        self.privacy = privacy
    }
}

/// A Markdown file named in the configuration, read when the configuration was loaded.
public struct MarkdownSource: Sendable, Equatable {
    /// The file's path as resolved (relative paths against the configuration file's folder).
    public var path: String
    /// The file's text (CommonMark with GitHub tables).
    public var text: String

    /// A source from its parts.
    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}
