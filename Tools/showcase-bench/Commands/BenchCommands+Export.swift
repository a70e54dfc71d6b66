import Foundation

/// The export row's subcommand: `export-reload`.
extension BenchCommands {
    static func exportReload(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(
            rest,
            known: [
                "socket", "export-dir", "overlay", "app-id", "tagline", "timeout", "settle", "label", "rendered",
                "carrying-taglines",
            ], switches: ["site"])
        func list(_ name: String) -> [String] {
            (arguments.string(name) ?? "").split(separator: ",").map(String.init)
        }
        let appId = try arguments.int("app-id", default: LookupFixtureGenerator.trackId(1))
        let tagline = arguments.string("tagline") ?? "bench-export-marker"
        let outcome = try ExportReloadProbe.run(
            socketPath: try arguments.required("socket"), exportDirectory: try arguments.required("export-dir"),
            overlayPath: try arguments.required("overlay"),
            overlayText: "taglines:\n  \(appId): \"\(tagline)\"\n", appId: appId, tagline: tagline,
            timeoutSeconds: try arguments.double("timeout", default: 10),
            settleSeconds: try arguments.double("settle", default: 0.5), rendered: list("rendered"),
            carryingTaglines: list("carrying-taglines"), site: arguments.flag("site"))
        let comparison = outcome.comparison
        let label = arguments.string("label") ?? "export-reload"
        FileHandle.standardError.write(
            Data(
                String(
                    format: "%@: %d of %d documents with the app rewrote it, last %@ after the Reload reply; "
                        + "%d of %d others rewritten; Admin.Export unchanged %.1f ms\n",
                    label, comparison.changed.count, comparison.mustChange.count,
                    outcome.lastDocumentMilliseconds.map { String(format: "%.1f ms", $0) } ?? "never",
                    comparison.rewritten.count, comparison.mustKeep.count, outcome.baselineExportMilliseconds
                ).utf8))
        if let site = outcome.site {
            FileHandle.standardError.write(
                Data(
                    String(
                        format: "%@: site: %d of %d pages showing the app carry the tagline, sitemap.xml %@, last %@ "
                            + "after the Reload reply; %d of %d other pages rewritten\n",
                        label, site.changed.count, site.mustChange.count,
                        site.sitemapChanged ? "rewritten" : "not rewritten",
                        outcome.siteLastMilliseconds.map { String(format: "%.1f ms", $0) } ?? "never",
                        site.rewritten.count, site.mustKeep.count
                    ).utf8))
        }
        let siteFields: [(String, String)] =
            outcome.site.map { site in
                [
                    ("siteFiles", String(outcome.siteFiles)), ("siteMustChange", String(site.mustChange.count)),
                    ("siteChanged", String(site.changed.count)), ("siteMustKeep", String(site.mustKeep.count)),
                    ("siteRewritten", String(site.rewritten.count)),
                    ("sitemapChanged", site.sitemapChanged ? "true" : "false"),
                    ("siteLastMs", outcome.siteLastMilliseconds.map { JSONText.number($0, decimals: 2) } ?? "null"),
                    ("siteRewrittenSample", JSONText.string(site.rewritten.sorted().prefix(3).joined(separator: " "))),
                ]
            } ?? []
        let fields: [(String, String)] = [
            ("label", JSONText.string(label)), ("documents", String(outcome.documents)),
            ("mustChange", String(comparison.mustChange.count)), ("changed", String(comparison.changed.count)),
            ("mustKeep", String(comparison.mustKeep.count)), ("rewritten", String(comparison.rewritten.count)),
            ("lastMs", outcome.lastDocumentMilliseconds.map { JSONText.number($0, decimals: 2) } ?? "null"),
            ("reloadMs", JSONText.number(outcome.reloadMilliseconds, decimals: 2)),
            ("baselineExportMs", JSONText.number(outcome.baselineExportMilliseconds, decimals: 2)),
            ("baselineExportReply", JSONText.string(outcome.baselineExportReply)),
            ("rewrittenSample", JSONText.string(comparison.rewritten.sorted().prefix(3).joined(separator: " "))),
        ]
        print(JSONText.object(fields + siteFields))
    }
}
