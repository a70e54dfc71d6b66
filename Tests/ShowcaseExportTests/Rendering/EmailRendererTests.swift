import Foundation
import ShowcaseCore
import Testing

@testable import ShowcaseExport

@Suite("Email fragment")
struct EmailRendererTests {
    @Test("is a presentation table with inline styles only: no script, style, class or relative URL")
    func emailRules() throws {
        let renderer = EmailRenderer(tree: .standard)
        let rows = [
            WebSamples.row(1, "Lanternlight", tagline: "Tide light", icons: [128: "icons/0000000000000128.jpg"]),
            WebSamples.row(2, WebSamples.hostile, tagline: WebSamples.hostile),
            WebSamples.row(3, "No icon", iconUrl: "http://127.0.0.1:9/3.png"),
        ]
        let html = text(
            renderer.render(WebSamples.document([], storefront: WebSamples.ca, language: "fr"), listings: rows))
        #expect(html.hasPrefix(#"<table role="presentation" lang="fr-CA" style=""#))
        #expect(occurrences(of: "<table", in: html) == 1)
        #expect(occurrences(of: "<tr>", in: html) == 3)
        #expect(!html.contains("<script") && !html.contains("<style") && !html.contains("class="))
        for attribute in ["href", "src"] {
            for value in html.components(separatedBy: " \(attribute)=\"").dropFirst() {
                #expect(value.hasPrefix("https://"), "\(attribute)=\"\(value.prefix(40))")
            }
        }
        // The mirrored icon has a path public URL, so the email uses Apple's icon; the http one is left out.
        #expect(html.contains(#"src="https://is1-ssl.mzstatic.com/1/512x512bb.jpg""#))
        #expect(occurrences(of: "<img ", in: html) == 2)
        #expect(occurrences(of: #"width="64" height="64""#, in: html) == 2)
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)"))
        #expect(html.contains(#"aria-label="Lanternlight, App Store""#))
        #expect(renderer.render(WebSamples.document([])).isEmpty)
    }

    @Test("names both links of a row after the app, the icon's too, whose image has an empty alt, on a white table")
    func linkNames() {
        let rows = [WebSamples.row(1, "Lanternlight"), WebSamples.row(2, "Knotbook", tagline: "Knots")]
        let html = text(EmailRenderer(tree: .standard).render(WebSamples.document([]), listings: rows))
        let links = html.components(separatedBy: "<a ").dropFirst()
        #expect(links.count == 4)
        for (index, link) in links.enumerated() {
            let name = index < 2 ? "Lanternlight" : "Knotbook"
            #expect(link.contains(#"aria-label="\#(name), App Store""#), "link \(index): \(link.prefix(120))")
        }
        #expect(occurrences(of: #"alt="""#, in: html) == 2)
        // Its own background: the dark text stays readable in a reader that darkens the message around it.
        #expect(html.prefix(while: { $0 != "\n" }).contains("color:#1d1d1f;background-color:#ffffff\""))
    }

    @Test("uses mirrored icons through an absolute public URL, the 2× size for the 64 px cell")
    func absoluteIcons() {
        let renderer = EmailRenderer(tree: PublicTree(url: "https://example.com/showcase/v1/", isAbsolute: true))
        let row = WebSamples.row(1, "Lanternlight", icons: [64: "icons/a.jpg", 128: "icons/b.jpg"])
        let html = text(renderer.render(WebSamples.document([]), listings: [row]))
        #expect(html.contains(#"src="https://example.com/showcase/v1/icons/b.jpg""#))
        #expect(!html.contains("mzstatic"))
    }
}

@Suite("Smart App Banner")
struct SmartAppBannerTests {
    @Test("names the host's own trackId, and is empty while it is unknown")
    func banner() {
        #expect(
            text(SmartAppBanner.render(hostAppId: 1_641_000_101))
                == "<meta name=\"apple-itunes-app\" content=\"app-id=1641000101\">\n")
        #expect(SmartAppBanner.render(hostAppId: nil).isEmpty)
        #expect(SmartAppBanner.render(hostAppId: -1).isEmpty)
    }
}

@Suite("Icon choice")
struct IconChoiceTests {
    /// The (1×, 2×) sizes chosen among `sizes` for a 64-pixel image; nil when none.
    func pick(_ sizes: [Int], display: Int = 64) -> [Int?]? {
        IconChoice(sizes: sizes, display: display).map { [$0.standard, $0.retina] }
    }

    @Test("picks the smallest size filling the display, a distinct 2× one, and the largest when none fills it")
    func choice() {
        #expect(pick([256, 64, 128]) == [64, 128])
        #expect(pick([256]) == [256, nil])
        #expect(pick([32, 48]) == [48, nil])
        #expect(pick([]) == nil)
        #expect(pick([100], display: .max) == [100, nil])
    }
}
