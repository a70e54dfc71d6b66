import Foundation

/// The site row (SPEC §11, §18): twenty developers' site, one developer's tagline reloaded.
extension BenchReport {
    /// The row from the `site-reload-20` probe (the pages and the sitemap after the reload) and `site-rendered-20`
    /// (the counts the daemon logged for the reload's pass); n/a, with the skip's reason, when either is missing.
    static func siteRows(_ entries: [[String: Any]]) -> [Row] {
        func first(_ label: String) -> [String: Any]? { entries.first { $0["label"] as? String == label } }
        // The scale the run had (BENCH_DEVELOPERS), as the cache generator wrote it.
        let generated = first("gen-cache-site20")
        let developers = (generated?["developers"] as? NSNumber)?.intValue ?? 20
        let storefronts = (generated?["storefronts"] as? NSNumber)?.intValue ?? 173
        let figure = "the site on, \(developers) developers × \(storefronts) storefronts, one tagline reload"
        let target = "≤ 1 s; \(developers - 1) others' pages untouched, not rendered"
        let reload = first("site-reload-20")
        let counts = first("site-rendered-20")
        func int(_ entry: [String: Any]?, _ key: String) -> Int? { (entry?[key] as? NSNumber)?.intValue }
        guard let reload, let mustChange = int(reload, "siteMustChange"), let rendered = int(counts, "pagesRendered")
        else {
            let reason = entries.first { $0["label"] as? String == "skip" && $0["row"] as? String == "site-20" }?[
                "reason"]
            return [
                Row(
                    figure: figure, ours: "n/a", floor: "", ratio: "", target: target, verdict: "n/a",
                    note: reason as? String ?? "not measured")
            ]
        }
        func count(_ key: String) -> Int { int(reload, key) ?? 0 }
        let pagesLast = (reload["siteLastMs"] as? NSNumber)?.doubleValue
        let documentsLast = (reload["lastMs"] as? NSNumber)?.doubleValue
        let sitemap = (reload["sitemapChanged"] as? Bool) ?? false
        let exact =
            mustChange > 0 && count("siteChanged") == mustChange && count("siteRewritten") == 0 && sitemap
            && count("mustChange") > 0 && count("changed") == count("mustChange") && count("rewritten") == 0
        // Rendered: the pages showing the app at most (the 19 others' app pages are reused, never rendered again).
        let renderedOK = rendered > 0 && rendered <= mustChange
        let last = [pagesLast, documentsLast].compactMap { $0 }.max()
        // What no writer can go under: the same files written again by the export's rules, without rendering.
        let floorEntry = first("site-floor-20")
        let floorMs = (floorEntry?["floorMs"] as? NSNumber)?.doubleValue
        let unchanged = String(
            format: "Export unchanged %.1f ms", (reload["baselineExportMs"] as? NSNumber)?.doubleValue ?? 0)
        let allSeen = pagesLast != nil && documentsLast != nil
        let ok = exact && renderedOK && allSeen && (last ?? .infinity) <= 1000
        return [
            Row(
                figure: "\(figure): \(count("siteFiles")) site files",
                ours: allSeen ? String(format: "last page %.1f ms", last ?? 0) : "not all within the timeout",
                floor: floorMs.map {
                    String(
                        format: "rewrite floor %.1f ms (%d files, %.0f MB)", $0, int(floorEntry, "files") ?? 0,
                        Double(int(floorEntry, "sourceBytes") ?? 0) / 1e6)
                } ?? unchanged,
                ratio: floorMs.flatMap { floor in last.map { String(format: "%.1f×", $0 / max(floor, 0.1)) } } ?? "",
                target: target, verdict: ok ? "PASS" : "FAIL",
                note: "\(count("siteChanged")) of \(mustChange) pages showing the app carry the tagline, "
                    + "sitemap.xml \(sitemap ? "rewritten" : "NOT rewritten"); \(count("siteRewritten")) of "
                    + "\(count("siteMustKeep")) other pages replaced (inode, mtime or bytes); the reload's pass "
                    + "rendered \(rendered) pages, reused \(int(counts, "pagesReused").map(String.init) ?? "?")"
                    + " (daemon's log); v1/: \(count("changed")) of \(count("mustChange")) documents rewritten, "
                    + "\(count("rewritten")) of \(count("mustKeep")) others; "
                    + (documentsLast.map { String(format: "last document %.1f ms", $0) } ?? "documents not all seen")
                    + "; load \(counts?["load"] as? String ?? "?")"
                    + (floorMs != nil ? "; \(unchanged)" : "")
                    + ((floorMs ?? 0) > 1000 ? "; the floor alone is over the target" : ""))
        ]
    }
}
