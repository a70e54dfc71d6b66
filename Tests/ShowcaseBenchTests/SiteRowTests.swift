import Foundation
import Testing

@testable import showcase_bench

@Suite("The site row of make bench: pages that must change, pages that must be kept, the daemon's counts")
struct SiteRowTests {
    private func page(_ text: String, inode: UInt64 = 1, at modified: Int64 = 10) -> SiteFile {
        SiteTree.describe(
            Array(text.utf8), inode: inode, modifiedNanoseconds: modified, appId: 1_650_000_102, tagline: "marker")
    }

    @Test("the app's id counts only between non-digits; the tagline anywhere")
    func mentions() {
        #expect(page(#"<a href="../1650000102/">"#).mentionsApp)
        #expect(page("app-id=1650000102").mentionsApp)
        #expect(!page("16500001020 and 21650000102").mentionsApp)
        #expect(!page("no id").mentionsApp)
        #expect(page("a marker here").carriesTagline)
        #expect(!page("a mark here").carriesTagline)
    }

    @Test("pages naming the app must carry the tagline, sitemap.xml must move, the rest keep inode, mtime and bytes")
    func classifies() {
        let before: [String: SiteFile] = [
            "us/index.html": page("1650000102 old"),
            "us/1650000102/index.html": page("1650000102 old"),
            "us/1650010101/index.html": page("another developer's app", inode: 7),
            "de/1650010101/index.html": page("another developer's app", inode: 8),
            "jp/1650010101/index.html": page("another developer's app", inode: 9),
            "showcase.css": page("css"),
            "sitemap.xml": page("<urlset>"),
        ]
        var after = before
        after["us/index.html"] = page("1650000102 marker", at: 20)
        after["us/1650000102/index.html"] = page("1650000102 old", at: 20)  // rewritten without the tagline
        after["de/1650010101/index.html"] = page("another developer's app", inode: 18)  // same bytes, new inode
        after["jp/1650010101/index.html"] = page("another developer's app", inode: 9, at: 30)  // new mtime
        var comparison = SiteComparison(before: before, after: after)
        #expect(comparison.mustChange == ["us/index.html", "us/1650000102/index.html"])
        #expect(comparison.changed == ["us/index.html"])
        #expect(comparison.mustKeep.count == 4)
        #expect(comparison.rewritten == ["de/1650010101/index.html", "jp/1650010101/index.html"])
        #expect(!comparison.sitemapChanged)
        #expect(!comparison.isExact)

        after = before
        after["us/index.html"] = page("1650000102 marker", at: 20)
        after["us/1650000102/index.html"] = page("1650000102 marker", at: 20)
        after["sitemap.xml"] = page("<urlset> new lastmod", at: 20)
        comparison = SiteComparison(before: before, after: after)
        #expect(comparison.isExact)
    }

    private func entries(rendered: Int?, lastMs: Double = 420, changed: Int = 10, rewritten: Int = 0) -> [[String: Any]]
    {
        var entries: [[String: Any]] = [
            [
                "label": "site-reload-20", "siteFiles": 104_000, "siteMustChange": 10, "siteChanged": changed,
                "siteMustKeep": 103_990, "siteRewritten": rewritten, "sitemapChanged": true, "siteLastMs": lastMs,
                "mustChange": 173, "changed": 173, "mustKeep": 6_747, "rewritten": 0, "lastMs": 120,
                "baselineExportMs": 80,
            ]
        ]
        if let rendered {
            entries.append([
                "label": "site-rendered-20", "pagesRendered": rendered, "pagesReused": 103_990, "load": "7.9 8.1 7.0",
            ])
        }
        return entries
    }

    @Test("within a second with only the changing pages rendered passes; more renders, a late or stray page fails")
    func verdict() {
        let row = BenchReport.siteRows(entries(rendered: 10)).first
        #expect(row?.verdict == "PASS")
        #expect(row?.figure == "the site on, 20 developers × 173 storefronts, one tagline reload: 104000 site files")
        let smaller = BenchReport.siteRows(
            entries(rendered: 10) + [["label": "gen-cache-site20", "developers": 5, "storefronts": 173]]
        ).first
        #expect(smaller?.figure.hasPrefix("the site on, 5 developers × 173 storefronts") == true)
        #expect(smaller?.target == "≤ 1 s; 4 others' pages untouched, not rendered")
        #expect(row?.ours == "last page 420.0 ms")
        #expect(row?.note.contains("rendered 10 pages, reused 103990") == true)
        #expect(row?.note.contains("load 7.9 8.1 7.0") == true)
        #expect(BenchReport.siteRows(entries(rendered: 11)).first?.verdict == "FAIL")
        #expect(BenchReport.siteRows(entries(rendered: 0)).first?.verdict == "FAIL")
        #expect(BenchReport.siteRows(entries(rendered: 10, lastMs: 1_000.5)).first?.verdict == "FAIL")
        #expect(BenchReport.siteRows(entries(rendered: 10, changed: 9)).first?.verdict == "FAIL")
        #expect(BenchReport.siteRows(entries(rendered: 10, rewritten: 1)).first?.verdict == "FAIL")
    }

    @Test("with the rewrite floor measured, it is the row's floor and ratio, and a floor over the target says so")
    func floor() {
        let floor: [String: Any] = [
            "label": "site-floor-20", "files": 5_363, "sourceBytes": 420_000_000, "floorMs": 2_100.0,
        ]
        let row = BenchReport.siteRows(entries(rendered: 10, lastMs: 4_200) + [floor]).first
        #expect(row?.floor == "rewrite floor 2100.0 ms (5363 files, 420 MB)")
        #expect(row?.ratio == "2.0×")
        #expect(row?.verdict == "FAIL")
        #expect(row?.note.contains("Export unchanged 80.0 ms") == true)
        #expect(row?.note.hasSuffix("the floor alone is over the target") == true)
        let quick = BenchReport.siteRows(entries(rendered: 10) + [floor.merging(["floorMs": 300.0]) { $1 }]).first
        #expect(quick?.note.contains("over the target") == false)
        #expect(BenchReport.siteRows(entries(rendered: 10)).first?.floor == "Export unchanged 80.0 ms")
    }

    @Test("without the probe's result or the daemon's counts the row is not measured, with the skip's reason")
    func missing() {
        let noCounts = BenchReport.siteRows(entries(rendered: nil)).first
        #expect(noCounts?.verdict == "n/a")
        #expect(noCounts?.note == "not measured")
        let skipped = BenchReport.siteRows([["label": "skip", "row": "site-20", "reason": "not measured (no site)"]])
        #expect(skipped.first?.verdict == "n/a")
        #expect(skipped.first?.note == "not measured (no site)")
    }
}
