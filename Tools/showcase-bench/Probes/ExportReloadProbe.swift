@preconcurrency import Glibc

/// The export row: a settled tree, then a reload that changes one app's tagline, then how long after the Reload
/// reply the last document listing that app carries the new tagline, and whether every other document kept its
/// mtime and bytes. The tree is polled every millisecond or two, never slept on. With the site (SPEC §18) the same
/// holds for `site/`: the pages showing the app and `sitemap.xml` are waited for too (``SiteComparison``).
enum ExportReloadProbe {
    struct Outcome {
        /// `Admin.Export` on a settled tree (nothing to write): the row's baseline.
        var baselineExportMilliseconds: Double
        var baselineExportReply: String
        var reloadMilliseconds: Double
        /// From the Reload reply to the last document seen with the tagline (nil: not all within the timeout).
        var lastDocumentMilliseconds: Double?
        var comparison: ExportComparison
        var documents: Int
        /// The site's verdict, when the row watched `site/`.
        var site: SiteComparison?
        /// Files under `site/` before the reload (pages, stylesheet, sitemap files).
        var siteFiles = 0
        /// From the Reload reply to the last page with the tagline or `sitemap.xml`, whichever came last.
        var siteLastMilliseconds: Double?
    }

    static func run(
        socketPath: String, exportDirectory: String, overlayPath: String, overlayText: String, appId: Int,
        tagline: String, timeoutSeconds: Double, settleSeconds: Double, rendered: [String] = [],
        carryingTaglines: [String] = [], site: Bool = false
    ) throws(BenchError) -> Outcome {
        let export = #"{"method":"io.showcase.Admin.Export"}"#
        // A pass over a large site takes longer than the usual minute: the reload's timeout bounds it too.
        let exportTimeout = max(60, timeoutSeconds)
        // The first pass settles whatever the startup pass left; the second, with nothing changed, is the baseline.
        try expectSuccess(
            VarlinkProbe.call(socketPath: socketPath, export, timeoutSeconds: exportTimeout), "Admin.Export")
        let exportStart = MonotonicClock.now()
        let baselineReply = try VarlinkProbe.call(socketPath: socketPath, export, timeoutSeconds: exportTimeout)
        let baseline = Double(MonotonicClock.now() - exportStart) / 1e6
        try expectSuccess(baselineReply, "Admin.Export")
        let before = ExportTree.snapshot(directory: exportDirectory, rendered: rendered)
        let pending = before.keys.filter {
            ExportComparison.mustChange($0, before: before, appId: appId, carryingTaglines: carryingTaglines)
        }
        guard !pending.isEmpty else {
            throw BenchError(
                "no export document under \(exportDirectory)/v1 lists app \(appId) (\(before.count) documents); "
                    + "check the configuration's export directory and the generated cache")
        }
        let siteBefore = site ? SiteTree.snapshot(directory: exportDirectory, appId: appId, tagline: tagline) : [:]
        var sitePending = Set(siteBefore.filter { $0.value.mentionsApp && !SiteComparison.isSitemap($0.key) }.keys)
        if site {
            guard !sitePending.isEmpty, siteBefore["sitemap.xml"] != nil else {
                throw BenchError(
                    "no page under \(exportDirectory)/site shows app \(appId), or no sitemap.xml "
                        + "(\(siteBefore.count) files); check the configuration's export.site")
            }
            sitePending.insert("sitemap.xml")
        }
        guard let overlay = fopen(overlayPath, "w"), fputs(overlayText, overlay) >= 0, fclose(overlay) == 0 else {
            throw BenchError("cannot write the overlay \(overlayPath); check the directory is writable")
        }

        let reloadStart = MonotonicClock.now()
        let reply = try VarlinkProbe.call(socketPath: socketPath, #"{"method":"io.showcase.Admin.Reload"}"#)
        let replied = MonotonicClock.now()
        try expectSuccess(reply, "Admin.Reload")
        var waiting = Set(pending)
        var last: UInt64?
        var siteLast: UInt64?
        let deadline = replied + MonotonicClock.nanoseconds(seconds: timeoutSeconds)
        while !waiting.isEmpty || !sitePending.isEmpty, MonotonicClock.now() < deadline {
            for path in sitePending {
                let full = exportDirectory + "/site/" + path
                guard let modified = ExportTree.modified(full), modified != siteBefore[path]?.modifiedNanoseconds
                else { continue }
                if SiteComparison.isSitemap(path)
                    || SiteTree.read(full, appId: appId, tagline: tagline)?.carriesTagline == true
                {
                    sitePending.remove(path)
                    siteLast = MonotonicClock.now()
                }
            }
            for path in waiting {
                // A stat per pending document per round; the bytes are read only once its mtime moved, so the
                // poller does not take the CPU the export pass needs.
                let full = exportDirectory + "/v1/" + path
                guard let modified = ExportTree.modified(full), modified != before[path]?.modifiedNanoseconds
                else { continue }
                if let file = ExportTree.read(full), ExportComparison.carries(tagline, in: file.bytes) {
                    waiting.remove(path)
                    last = MonotonicClock.now()
                }
            }
            if !waiting.isEmpty || !sitePending.isEmpty { usleep(1000) }
        }
        // Give a stray rewrite of an unchanged document the time to show before the final snapshot.
        usleep(UInt32(max(0, settleSeconds) * 1e6))
        let after = ExportTree.snapshot(directory: exportDirectory, rendered: rendered)
        let siteAfter = site ? SiteTree.snapshot(directory: exportDirectory, appId: appId, tagline: tagline) : [:]
        return Outcome(
            baselineExportMilliseconds: baseline, baselineExportReply: String(decoding: baselineReply, as: UTF8.self),
            reloadMilliseconds: Double(replied - reloadStart) / 1e6,
            lastDocumentMilliseconds: waiting.isEmpty ? last.map { Double($0 &- replied) / 1e6 } : nil,
            comparison: ExportComparison(
                before: before, after: after, appId: appId, tagline: tagline, carryingTaglines: carryingTaglines),
            documents: before.count, site: site ? SiteComparison(before: siteBefore, after: siteAfter) : nil,
            siteFiles: siteBefore.count,
            siteLastMilliseconds: sitePending.isEmpty ? siteLast.map { Double($0 &- replied) / 1e6 } : nil)
    }

    private static func expectSuccess(_ reply: [UInt8], _ method: String) throws(BenchError) {
        if reply.withUnsafeBufferPointer({ ReplyScanner.isError($0) }) {
            throw BenchError("\(method) answered with an error: \(String(decoding: reply.prefix(400), as: UTF8.self))")
        }
    }
}
