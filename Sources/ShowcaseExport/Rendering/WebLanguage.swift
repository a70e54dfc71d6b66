import ShowcaseCore

extension ExportDocument {
    /// The BCP 47 tag of the document's text, for a fragment's `lang`: its language with the storefront's region
    /// (`fr-CA`, `en-CA`) when it was fetched in one, else the storefront's own locale (`ja-JP`, `pt-BR`).
    public var webLanguage: String { storefront.webLanguage(language) }
}

extension Storefront {
    /// The BCP 47 tag of a roster of this storefront fetched in `language` (`fr` → `fr-CA`); the storefront's own
    /// locale (`ja-JP`) for one fetched without a language. What `lang`, `xml:lang` and the labels go by.
    public func webLanguage(_ language: String?) -> String {
        guard let language, !language.isEmpty else { return locale }
        return language + "-" + code.uppercased()
    }
}
