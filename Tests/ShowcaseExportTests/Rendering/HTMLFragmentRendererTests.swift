import Foundation
import ShowcaseCore
import Testing

@testable import ShowcaseExport

@Suite("HTML fragment")
struct HTMLFragmentRendererTests {
    let renderer = HTMLFragmentRenderer(tree: .standard)

    @Test("lists every app in the document's order, each row one link wrapping icon, name, tagline, price and label")
    func rowsInOrder() throws {
        let document = WebSamples.document([
            Samples.exported(Samples.windrose), Samples.exported(Samples.lanternlight, tagline: .plain("Tide light")),
        ])
        let html = text(renderer.render(document))
        #expect(
            html.hasPrefix(
                #"<section class="showcase" lang="en-US" data-host="com.quietharbor.TideLog" "#
                    + #"data-storefront="us" data-platform="ios">"#))
        #expect(!html.contains("<html") && !html.contains("<body") && !html.contains("<head"))
        let ids = html.components(separatedBy: #"data-app-id=""#).dropFirst().map { $0.prefix(while: \.isNumber) }
        #expect(ids == ["1641000105", "1641000103"])
        #expect(occurrences(of: "<li ", in: html) == 2)
        #expect(occurrences(of: "<a ", in: html) == 2)
        #expect(occurrences(of: "</a></li>", in: html) == 2)
        let row: String = [
            #"<a class="showcase-link" href="https://apps.apple.com/us/app/id1641000103?uo=4" "#,
            #"aria-label="Lanternlight, App Store"><img class="showcase-icon" "#,
            #"src="https://is1-ssl.mzstatic.com/1641000103/512x512bb.jpg" alt="" width="64" height="64" "#,
            #"loading="lazy"><span class="showcase-text"><span class="showcase-name"><bdi>Lanternlight</bdi></span>"#,
            #"<span class="showcase-tagline"><bdi>Tide light</bdi></span><span class="showcase-meta">"#,
            #"<span class="showcase-price"><bdi>Free</bdi></span><span class="showcase-badge">App Store</span>"#,
        ].joined()
        #expect(html.contains(row))
        #expect(html.contains(#"<span class="showcase-price"><bdi>$2.99</bdi></span>"#))
        #expect(html.hasSuffix("</script>\n</section>\n"))
    }

    @Test("labels Mac App Store rows and names the store in each link's accessible name")
    func macLabel() {
        let html = text(renderer.render(WebSamples.document([Samples.exported(Samples.chartTable)], platform: .macos)))
        #expect(html.contains(#"aria-label="ChartTable, Mac App Store""#))
        #expect(html.contains(#"<span class="showcase-badge">Mac App Store</span>"#))
        #expect(html.contains(#"data-platform="macos""#))
    }

    @Test("an empty roster, or one whose every store link is unsafe, renders an empty file")
    func emptyIsEmpty() {
        #expect(renderer.render(WebSamples.document([])).isEmpty)
        let unsafe = WebSamples.row(1, "Bad", storeUrl: "javascript:alert(1)")
        #expect(renderer.render(WebSamples.document([]), listings: [unsafe]).isEmpty)
    }

    @Test("lang is the document's language with the storefront's region, else the storefront's own locale")
    func language() {
        let apps = [Samples.exported(Samples.windrose)]
        #expect(
            text(renderer.render(WebSamples.document(apps, storefront: WebSamples.ca, language: "fr")))
                .contains(#"lang="fr-CA""#))
        #expect(
            text(renderer.render(WebSamples.document(apps, storefront: WebSamples.ca, language: "en")))
                .contains(#"lang="en-CA""#))
        #expect(text(renderer.render(WebSamples.document(apps, storefront: Samples.jp))).contains(#"lang="ja-JP""#))
    }

    @Test("escapes hostile names, taglines, prices and URLs as character references in text and attributes")
    func escapesText() throws {
        let row = WebSamples.row(
            7, WebSamples.hostile, tagline: WebSamples.hostile, storeUrl: "https://apps.apple.com/us/app/id7?a=1&b=2",
            formattedPrice: "<b>1 & 2</b>")
        let html = text(renderer.render(WebSamples.document([]), listings: [row]))
        let script = try #require(html.range(of: "<script type="))
        let markupBeforeScript = String(html[..<script.lowerBound])
        #expect(!markupBeforeScript.contains("<script>") && !markupBeforeScript.contains("onerror='"))
        #expect(
            markupBeforeScript.contains(
                "&lt;/a&gt;&lt;/li&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=&#39;y&#39;&gt;"
                    + " &amp; &lt;/script&gt;&lt;!--"))
        #expect(markupBeforeScript.contains(#"aria-label="&lt;/a&gt;&lt;/li&gt;"#))
        #expect(markupBeforeScript.contains("&lt;b&gt;1 &amp; 2&lt;/b&gt;"))
        #expect(markupBeforeScript.contains(#"href="https://apps.apple.com/us/app/id7?a=1&amp;b=2""#))
    }

    @Test("escapes <, > and & in the JSON-LD so no string can close the script, and it still parses to the text")
    func escapesStructuredData() throws {
        let row = WebSamples.row(7, WebSamples.hostile, tagline: "Tides & </script> <!-- knots")
        let html = text(renderer.render(WebSamples.document([]), listings: [row]))
        let script = html[html.range(of: "<script type=\"application/ld+json\">")!.upperBound...]
        #expect(occurrences(of: "</script>", in: String(script)) == 1)
        #expect(!script.dropLast("</script>\n</section>\n".count).contains(where: { "<>&".contains($0) }))
        #expect(script.contains(#"Tides \u0026 \u003c/script\u003e \u003c!-- knots"#))
        let app = try #require(try softwareApplications(html).first)
        #expect(app["name"] as? String == WebSamples.hostile)
        #expect(app["description"] as? String == "Tides & </script> <!-- knots")
    }

    @Test("sets href and src only from https URLs or files inside the tree, dropping the row without a safe link")
    func urlPolicy() {
        let rows = [
            WebSamples.row(1, "Script", storeUrl: "javascript:alert(1)//"),
            WebSamples.row(2, "Data", storeUrl: "data:text/html,<script>alert(1)</script>"),
            WebSamples.row(3, "Tab", storeUrl: "java\tscript:alert(1)"),
            WebSamples.row(4, "Relative", storeUrl: "//evil.example/app/id4"),
            WebSamples.row(5, "Plain", storeUrl: "http://apps.apple.com/us/app/id5"),
            WebSamples.row(6, "Userinfo", storeUrl: "https://apps.apple.com@evil.example/id6"),
            WebSamples.row(7, "HTTP icon", iconUrl: "http://is1-ssl.mzstatic.com/7/512x512bb.jpg"),
            WebSamples.row(8, "Escaping icon", icons: [128: "../../etc/passwd"]),
            WebSamples.row(9, "Good"),
        ]
        let html = text(renderer.render(WebSamples.document([]), listings: rows))
        let ids = html.components(separatedBy: #"data-app-id=""#).dropFirst().map {
            String($0.prefix(while: \.isNumber))
        }
        #expect(ids == ["7", "8", "9"])
        #expect(!html.contains("javascript") && !html.contains("data:") && !html.contains("evil.example"))
        #expect(!html.contains("http://") && !html.contains("passwd"))
        // Row 7 has no icon it may show; row 8's path leaves the tree, so Apple's https icon stands in.
        #expect(occurrences(of: "<img ", in: html) == 2)
        #expect(html.contains(#"src="https://is1-ssl.mzstatic.com/8/512x512bb.jpg""#))
    }

    @Test("links mirrored icons through the public URL: the smallest size filling 64 px, and a 2× one in srcset")
    func mirroredIcons() throws {
        let icons = [
            32: "icons/0000000000000032.png", 128: "icons/0000000000000128.jpg",
            256: "icons/0000000000000256.jpg", 64: "icons/0000000000000064.webp",
        ]
        let row = WebSamples.row(1, "Mirrored", icons: icons)
        let html = text(renderer.render(WebSamples.document([]), listings: [row]))
        #expect(
            html.contains(
                #"src="/showcase/v1/icons/0000000000000064.webp" "#
                    + #"srcset="/showcase/v1/icons/0000000000000064.webp 1x, /showcase/v1/icons/0000000000000128.jpg 2x""#
            ))
        let markup = try #require(html.components(separatedBy: "<script").first)
        #expect(!markup.contains("mzstatic.com/1/"), "a mirrored icon never falls back to Apple's CDN in the markup")
        let one = text(
            renderer.render(WebSamples.document([]), listings: [WebSamples.row(1, "One", icons: [512: "icons/a.png"])]))
        #expect(one.contains(#"src="/showcase/v1/icons/a.png" alt"#))
        let absolute = HTMLFragmentRenderer(
            tree: PublicTree(url: "https://cdn.example.com/showcase/v1/", isAbsolute: true))
        let html2 = text(absolute.render(WebSamples.document([]), listings: [row]))
        #expect(html2.contains(#"src="https://cdn.example.com/showcase/v1/icons/0000000000000064.webp""#))
        #expect(
            try softwareApplications(html2).first?["image"] as? String
                == "https://cdn.example.com/showcase/v1/icons/0000000000000256.jpg")
        #expect(
            try softwareApplications(html).first?["image"] as? String
                == "https://is1-ssl.mzstatic.com/1/512x512bb.jpg",
            "a path public URL gives crawlers Apple's absolute URL")
    }
}
