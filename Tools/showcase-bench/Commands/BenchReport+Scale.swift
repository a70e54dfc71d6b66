import Foundation

/// The rows at scale (issue 13): varied calls, Watch fan-out, twenty developers and the export, each with the
/// baseline it is judged against beside it.
extension BenchReport {
    static func scaleRows(_ entries: [[String: Any]]) -> [Row] {
        func with(_ label: String) -> [[String: Any]] { entries.filter { $0["label"] as? String == label } }
        func numbers(_ list: [[String: Any]], _ key: String) -> [Double] {
            list.compactMap { ($0[key] as? NSNumber)?.doubleValue }
        }
        func number(_ entry: [String: Any]?, _ key: String) -> Double { (entry?[key] as? NSNumber)?.doubleValue ?? 0 }
        func missing(_ figure: String, _ target: String, _ row: String) -> Row {
            let reason = entries.first { $0["label"] as? String == "skip" && $0["row"] as? String == row }?["reason"]
            return Row(
                figure: figure, ours: "n/a", floor: "", ratio: "", target: target, verdict: "n/a",
                note: reason as? String ?? "not measured")
        }
        var rows: [Row] = []

        let variedFigure = "Roster.Get varied calls, 16 conns (calls/s)"
        let daemon = with("varied-daemon")
        let floor = with("varied-floor")
        if daemon.isEmpty || floor.isEmpty {
            rows.append(missing(variedFigure, "≥ 85% of floor", "varied"))
        } else {
            let ours = numbers(daemon, "callsPerSecond").max() ?? 0
            let base = numbers(floor, "callsPerSecond").max() ?? 0
            let pairs = zip(numbers(daemon, "callsPerSecond"), numbers(floor, "callsPerSecond")).map { $0 / $1 }
            let ratio = base > 0 ? ours / base : 0
            let failed = numbers(daemon, "totalErrors").reduce(0, +) + numbers(daemon, "unanswered").reduce(0, +)
            let sizes = with("varied-replies").first
            func cpu(_ list: [[String: Any]]) -> Double { median(numbers(list, "serverCpuMicrosPerCall")) }
            rows.append(
                Row(
                    figure: variedFigure, ours: String(format: "%.0f", ours), floor: String(format: "%.0f", base),
                    ratio: String(format: "%.0f%%", ratio * 100), target: "≥ 85% of floor",
                    verdict: (ratio >= 0.85 && failed == 0 ? "PASS" : "FAIL") + (noisy(entries) ? "*" : ""),
                    note: "\(Int(number(sizes, "calls"))) distinct calls in rotation (replies "
                        + "\(Int(number(sizes, "minBytes")))–\(Int(number(sizes, "maxBytes"))) B; the floor answers "
                        + "the median, \(Int(number(sizes, "medianBytes"))) B); best of \(daemon.count) alternating "
                        + "rounds each; median of the per-round ratios " + String(format: "%.0f%%", median(pairs) * 100)
                        + "; \(Int(failed)) failed calls; "
                        + String(
                            format: "p99 %.3f ms (floor %.3f ms); server CPU per call %.1f µs (floor %.1f µs)",
                            median(numbers(daemon, "p99Ms")), median(numbers(floor, "p99Ms")), cpu(daemon), cpu(floor))
                ))
        }

        let fanoutFigure = "Watch fan-out, 1,000 subscribers, one storefront"
        if let fanout = with("fanout").first {
            let p99 = number(fanout, "p99Ms")
            let rss = number(fanout, "rssKiB") * 1024 / 1e6
            let missed = Int(number(fanout, "missing")) + Int(number(fanout, "errors"))
            let ok = missed == 0 && p99 <= 100 && rss > 0 && rss <= 80
            rows.append(
                Row(
                    figure: fanoutFigure, ours: String(format: "p99 %.1f ms; RSS %.1f MB", p99, rss),
                    floor: String(format: "RSS %.1f MB idle", number(fanout, "rssBeforeKiB") * 1024 / 1e6),
                    ratio: "", target: "p99 ≤ 100 ms; RSS ≤ 80 MB", verdict: ok ? "PASS" : "FAIL",
                    note: "\(Int(number(fanout, "received"))) of \(Int(number(fanout, "subscribers"))) got revision "
                        + "\(Int(number(fanout, "revisionAfter"))) (from \(Int(number(fanout, "revisionBefore")))), "
                        + "\(missed) missed or failed; after the cache file's mtime: "
                        + String(
                            format: "first %.1f ms, p50 %.1f ms, max %.1f ms; Admin.Refresh took %.1f ms",
                            number(fanout, "firstMs"), number(fanout, "p50Ms"), number(fanout, "maxMs"),
                            number(fanout, "refreshMs"))))
        } else {
            rows.append(missing(fanoutFigure, "p99 ≤ 100 ms; RSS ≤ 80 MB", "fanout"))
        }

        // The same load twice: apps alike in every storefront but for the store URL (the records are shared), and
        // each storefront's own currency, price label and ratings, as in a real catalog (gen-cache --local-prices).
        for (run, generator, prices, row) in [
            ("startup-20", "gen-cache-20", "", "twenty"),
            ("startup-20-prices", "gen-cache-20-prices", ", local prices", "twenty-prices"),
        ] {
            let twenty = with(run)
            let generated = with(generator).first
            let developers = Int(number(generated, "developers"))
            let scaleFigure =
                "\(developers > 0 ? developers : 20) developers × \(Int(number(generated, "storefronts"))) storefronts cached"
                + prices
            if twenty.isEmpty {
                rows.append(missing(scaleFigure, "ready ≤ 150 ms; RSS ≤ 150 MB", row))
            } else {
                let ready = median(numbers(twenty, "readyMs"))
                let rss = (numbers(twenty, "rssKiB").max() ?? 0) * 1024 / 1e6
                let errors = numbers(twenty, "touchErrors").reduce(0, +)
                let one = with("startup")
                let ok = ready <= 150 && rss > 0 && rss <= 150 && errors == 0
                rows.append(
                    Row(
                        figure: scaleFigure, ours: String(format: "ready %.1f ms; RSS %.1f MB", ready, rss),
                        floor: one.isEmpty
                            ? ""
                            : String(
                                format: "1 dev: %.1f ms; %.1f MB", median(numbers(one, "readyMs")),
                                (numbers(one, "rssKiB").max() ?? 0) * 1024 / 1e6),
                        ratio: "", target: "ready ≤ 150 ms; RSS ≤ 150 MB", verdict: ok ? "PASS" : "FAIL",
                        note: "median of \(twenty.count) starts (best "
                            + String(format: "%.1f ms", numbers(twenty, "readyMs").min() ?? 0) + "); "
                            + "\(Int(number(generated, "hosts"))) hosts × \(Int(number(generated, "apps"))) apps; VmRSS after "
                            + "one Get per (host, storefront): \(Int(numbers(twenty, "touched").max() ?? 0)) Gets, "
                            + "\(Int(errors)) errors; "
                            + String(
                                format: "%.1f MB right after ready; peak VmHWM %.1f MB; daemon CPU until ready %.0f ms",
                                (numbers(twenty, "readyRssKiB").max() ?? 0) * 1024 / 1e6,
                                (numbers(twenty, "peakKiB").max() ?? 0) * 1024 / 1e6,
                                median(numbers(twenty, "readyCpuMs")))
                    ))
            }
        }

        rows.append(exportRow(with("export-reload").first, missing))
        rows.append(iconRow(with("icons").first, missing))
        rows.append(exportTwentyRow(with("export-reload-20").first, with("export-rendered-20").first, missing))
        return rows
    }

    /// The twenty-developer export row: the one-tagline reload of ``exportRow(_:_:)`` over 20 developers' trees with
    /// the web fragments and feeds on, and how many rosters the pass rendered (only the changed developer's).
    private static func exportTwentyRow(
        _ entry: [String: Any]?, _ rendered: [String: Any]?, _ missing: (String, String, String) -> Row
    ) -> Row {
        let figure = "the same, html + feed + icons on, 20 developers × 173 × 2"
        let target = "≤ 1 s; 19 others untouched, not rendered"
        guard let entry else { return missing(figure, target, "export-20") }
        func count(_ key: String) -> Int { (entry[key] as? NSNumber)?.intValue ?? 0 }
        func renderedCount(_ key: String) -> Int? { (rendered?[key] as? NSNumber)?.intValue }
        let last = (entry["lastMs"] as? NSNumber)?.doubleValue
        let exact = count("mustChange") > 0 && count("changed") == count("mustChange") && count("rewritten") == 0
        let perDeveloper = renderedCount("perDeveloper") ?? 0
        let renderedOK = renderedCount("rendered").map { $0 > 0 && $0 <= perDeveloper } ?? false
        // The icons were mirrored before the reload (0: the row ran without them, which it does not stand for).
        let icons = renderedCount("icons") ?? 0
        let ok = exact && renderedOK && icons > 0 && (last ?? .infinity) <= 1000
        return Row(
            figure: "\(figure): \(count("documents")) files",
            ours: last.map { String(format: "last file %.1f ms", $0) } ?? "not all within the timeout",
            floor: String(
                format: "Export unchanged %.1f ms", (entry["baselineExportMs"] as? NSNumber)?.doubleValue ?? 0),
            ratio: "", target: target, verdict: ok ? "PASS" : "FAIL",
            note: "\(count("changed")) of \(count("mustChange")) files showing the app rewritten with the tagline; "
                + "\(count("rewritten")) of \(count("mustKeep")) others rewritten; the reload's pass rendered "
                + "\(renderedCount("rendered").map(String.init) ?? "?") rosters (the developer has \(perDeveloper)), "
                + "reused \(renderedCount("reused").map(String.init) ?? "?"); \(icons) mirrored icon files")
    }

    /// The icon row: one developer in every storefront with `export.icons`; the first pass requests each distinct
    /// (artwork URL, size) once, a second pass none (SPEC §16).
    private static func iconRow(_ entry: [String: Any]?, _ missing: (String, String, String) -> Row) -> Row {
        let target = "= distinct icons × sizes, once; 2nd pass 0"
        guard let entry else { return missing("icon pass, one developer × every storefront", target, "icons") }
        func count(_ key: String) -> Int { (entry[key] as? NSNumber)?.intValue ?? -1 }
        let ok = count("mirrored") == 1 && count("requests") == count("expected") && count("second") == 0
        return Row(
            figure: "icon pass, one developer × \(count("storefronts")) storefronts",
            ours: "\(count("requests")) requests; 2nd pass \(count("second"))", floor: "", ratio: "",
            target: "= \(count("distinct")) × \(count("sizes")) = \(count("expected")) once; 2nd pass 0",
            verdict: ok ? "PASS" : "FAIL",
            note: "\(count("documents")) documents all list every size after \(count("wallMs")) ms; "
                + "\(count("files")) files in v1/icons/ (lookup-replay's log)")
    }

    /// The export row: the time from the Reload reply to the last document with the new tagline, beside an
    /// `Admin.Export` that had nothing to write.
    private static func exportRow(_ entry: [String: Any]?, _ missing: (String, String, String) -> Row) -> Row {
        let target = "≤ 1 s; unchanged keep mtime"
        guard let entry else {
            return missing("export after a one-tagline reload, 173 × 2 documents", target, "export")
        }
        func count(_ key: String) -> Int { (entry[key] as? NSNumber)?.intValue ?? 0 }
        let last = (entry["lastMs"] as? NSNumber)?.doubleValue
        let exact = count("mustChange") > 0 && count("changed") == count("mustChange") && count("rewritten") == 0
        let ok = exact && (last ?? .infinity) <= 1000
        return Row(
            figure: "export after a one-tagline reload, \(count("documents")) documents",
            ours: last.map { String(format: "last document %.1f ms", $0) } ?? "not all within the timeout",
            floor: String(
                format: "Export unchanged %.1f ms", (entry["baselineExportMs"] as? NSNumber)?.doubleValue ?? 0),
            ratio: "", target: target, verdict: ok ? "PASS" : "FAIL",
            note: "after the Reload reply ("
                + String(format: "%.1f ms", (entry["reloadMs"] as? NSNumber)?.doubleValue ?? 0)
                + "): \(count("changed")) of \(count("mustChange")) documents listing the app rewritten with the "
                + "tagline; \(count("rewritten")) of \(count("mustKeep")) others rewritten (mtime or bytes), "
                + "\(count("mustKeep") - count("rewritten")) kept")
    }
}
