import Foundation
import ShowcaseCore
import ShowcaseHistory
import Testing

@testable import ShowcaseExport

/// SPEC §19: the words each surface writes itself are in the document's language, a right-to-left document says
/// so, and every text from upstream or the overlay sits in its own bidi isolate.
@Suite("Language and direction of the rendered surfaces")
struct LanguageDirectionTests {
    static let sa = try! Storefront(parsing: "sa")
    static let il = try! Storefront(parsing: "il")
    /// A name with a right-to-left override that, unisolated, would run on over the price and badge after it.
    static let overriding = "Tide\u{202E}Log"

    static func feed(
        storefront: Storefront, language: String?, isDefault: Bool = true, labels: Labels = .builtIn
    ) -> String {
        let start = AtomFeedTests.start
        let price = HistoryEntry(
            serial: 3, at: start, kind: .price, id: 103, name: "Lanternlight", platform: .ios,
            storeUrl: "https://apps.apple.com/ca/app/id103", iconUrl: "https://is1-ssl.mzstatic.com/103.jpg",
            version: nil, versionDate: nil, releaseNotes: nil, formattedPrice: "1,99 $",
            previousFormattedPrice: "Gratuit")
        let entries = [
            AtomFeedTests.entry(1, .removed, name: "Casse-têtes de cordage"),
            AtomFeedTests.entry(2, .updated, name: "Note Jar", version: "2.1"), price,
        ]
        let feed = AtomFeed(
            host: "com.example.Host", storefront: storefront, language: language, isDefaultLanguage: isDefault,
            platform: .ios, artistName: "Quiet Harbor Labs", entries: entries, quietSince: start, selfURL: nil,
            labels: labels)
        return text(feed.rendered())
    }

    @Test("a French-Canadian feed is French: xml:lang, title and every summary")
    func frenchFeed() {
        let xml = Self.feed(storefront: WebSamples.ca, language: "fr", isDefault: false)
        #expect(xml.contains(#"<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="fr-CA">"#))
        #expect(xml.contains("<title>Quiet Harbor Labs\u{00A0}: nouveautés (App Store, CA (fr))</title>"))
        #expect(xml.contains("<summary type=\"text\">Casse-têtes de cordage n’est plus disponible</summary>"))
        #expect(xml.contains("<summary type=\"text\">Note Jar, version 2.1</summary>"))
        #expect(xml.contains("<summary type=\"text\">Lanternlight\u{00A0}: 1,99 $ (auparavant Gratuit)</summary>"))
        #expect(!xml.contains("no longer listed") && !xml.contains("what changed") && !xml.contains("(was "))
    }

    @Test("an Arabic feed is Arabic and says ar-SA; a storefront without a language writes its own locale")
    func arabicFeed() {
        let xml = Self.feed(storefront: Self.sa, language: nil)
        #expect(xml.contains(#"xml:lang="ar-SA""#))
        #expect(xml.contains("<title>Quiet Harbor Labs: ما الذي تغيّر في App Store، SA</title>"))
        #expect(xml.contains("<summary type=\"text\">لم يعد التطبيق Casse-têtes de cordage متاحًا</summary>"))
        #expect(Self.feed(storefront: Samples.us, language: nil).contains(#"xml:lang="en-US""#))
    }

    @Test("the overlay's labels change the feed's title and summaries in their language only")
    func feedLabels() {
        let labels = Labels(overrides: [
            "fr": [.feedTitle: "Quoi de neuf chez {developer}", .feedRemoved: "Adieu {name}"]
        ])
        let french = Self.feed(storefront: WebSamples.ca, language: "fr", isDefault: false, labels: labels)
        #expect(french.contains("<title>Quoi de neuf chez Quiet Harbor Labs</title>"))
        #expect(french.contains("<summary type=\"text\">Adieu Casse-têtes de cordage</summary>"))
        let english = Self.feed(storefront: WebSamples.ca, language: "en", labels: labels)
        #expect(english.contains("<title>Quiet Harbor Labs: what changed on the App Store, CA</title>"))
    }

    @Test("an Arabic or Hebrew fragment and email say dir=rtl; a French one does not")
    func rightToLeft() {
        let rows = [WebSamples.row(1, "مذكرات المد", formattedPrice: "مجانًا")]
        for storefront in [Self.sa, Self.il] {
            let document = WebSamples.document([], storefront: storefront)
            let fragment = text(HTMLFragmentRenderer().render(document, listings: rows))
            #expect(fragment.hasPrefix("<section class=\"showcase\" lang=\"\(storefront.locale)\" dir=\"rtl\" "))
            let email = text(EmailRenderer().render(document, listings: rows))
            #expect(email.hasPrefix("<table role=\"presentation\" lang=\"\(storefront.locale)\" dir=\"rtl\" style="))
            // The icon's cell keeps its gap on the side of the text, which is its left in RTL.
            #expect(email.contains("padding:8px 0 8px 12px") && !email.contains("padding:8px 12px 8px 0"))
        }
        let french = WebSamples.document([], storefront: WebSamples.ca, language: "fr")
        #expect(!text(HTMLFragmentRenderer().render(french, listings: rows)).contains("dir=\"rtl\""))
        #expect(!text(EmailRenderer().render(french, listings: rows)).contains("dir=\"rtl\""))
    }

    @Test("a right-to-left override in a name or tagline stays inside its own isolate, before the price and badge")
    func isolates() {
        let rows = [
            WebSamples.row(1, Self.overriding, tagline: "\u{202B}tag\u{2067}line", formattedPrice: "\u{202E}$0.99")
        ]
        let document = WebSamples.document([], storefront: Self.sa)
        let fragment = text(HTMLFragmentRenderer().render(document, listings: rows))
        #expect(fragment.contains("<span class=\"showcase-name\"><bdi>\(Self.overriding)</bdi></span>"))
        #expect(fragment.contains("<span class=\"showcase-tagline\"><bdi>\u{202B}tag\u{2067}line</bdi></span>"))
        #expect(
            fragment.contains(
                "<span class=\"showcase-price\"><bdi>\u{202E}$0.99</bdi></span><span class=\"showcase-badge\">"))
        let email = text(EmailRenderer().render(document, listings: rows))
        #expect(email.contains("font-weight:600;line-height:22px\">\(Self.overriding)</span>"))
        #expect(occurrences(of: "<span dir=\"auto\" style=", in: email) == 3)
        #expect(
            email.contains("<span dir=\"auto\" style=\"font-size:14px;line-height:20px;color:#6e6e73\">\u{202E}$0.99"))
    }

    @Test("each row's accessible name is app_link in the document's language, and the overlay's labels win")
    func accessibleName() {
        let rows = [WebSamples.row(1, "Lanternlight")]
        let arabic = WebSamples.document([], storefront: Self.sa)
        #expect(
            text(HTMLFragmentRenderer().render(arabic, listings: rows)).contains(
                #"aria-label="Lanternlight، App Store""#))
        let labels = Labels(overrides: ["fr-CA": [.appLink: "{name} sur l’{store}"]])
        let french = WebSamples.document([], storefront: WebSamples.ca, language: "fr")
        #expect(
            text(HTMLFragmentRenderer(labels: labels).render(french, listings: rows)).contains(
                #"aria-label="Lanternlight sur l’App Store""#))
        #expect(
            text(EmailRenderer(labels: labels).render(french, listings: rows)).contains(
                #"aria-label="Lanternlight sur l’App Store""#))
        let english = WebSamples.document([], storefront: WebSamples.ca, language: "en")
        #expect(
            text(HTMLFragmentRenderer(labels: labels).render(english, listings: rows)).contains(
                #"aria-label="Lanternlight, App Store""#))
    }
}
