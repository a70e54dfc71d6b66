import ShowcaseCore

extension ExportDocument {
    /// The BCP 47 tag of the document's text, for a fragment's `lang`: its language with the storefront's region
    /// (`fr-CA`, `en-CA`) when it was fetched in one, else the storefront's own locale (`ja-JP`, `pt-BR`).
    public var webLanguage: String {
        guard let language, !language.isEmpty else { return storefront.locale }
        return language + "-" + storefront.code.uppercased()
    }
}
