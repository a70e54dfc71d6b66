@preconcurrency import Glibc

/// The export row: a settled tree, then a reload that changes one app's tagline, then how long after the Reload
/// reply the last document listing that app carries the new tagline, and whether every other document kept its
/// mtime and bytes. The tree is polled every millisecond or two, never slept on.
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
    }

    static func run(
        socketPath: String, exportDirectory: String, overlayPath: String, overlayText: String, appId: Int,
        tagline: String, timeoutSeconds: Double, settleSeconds: Double, rendered: [String] = [],
        carryingTaglines: [String] = []
    ) throws(BenchError) -> Outcome {
        let export = #"{"method":"io.showcase.Admin.Export"}"#
        // The first pass settles whatever the startup pass left; the second, with nothing changed, is the baseline.
        try expectSuccess(VarlinkProbe.call(socketPath: socketPath, export, timeoutSeconds: 60), "Admin.Export")
        let exportStart = MonotonicClock.now()
        let baselineReply = try VarlinkProbe.call(socketPath: socketPath, export, timeoutSeconds: 60)
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
        guard let overlay = fopen(overlayPath, "w"), fputs(overlayText, overlay) >= 0, fclose(overlay) == 0 else {
            throw BenchError("cannot write the overlay \(overlayPath); check the directory is writable")
        }

        let reloadStart = MonotonicClock.now()
        let reply = try VarlinkProbe.call(socketPath: socketPath, #"{"method":"io.showcase.Admin.Reload"}"#)
        let replied = MonotonicClock.now()
        try expectSuccess(reply, "Admin.Reload")
        var waiting = Set(pending)
        var last: UInt64?
        let deadline = replied + MonotonicClock.nanoseconds(seconds: timeoutSeconds)
        while !waiting.isEmpty, MonotonicClock.now() < deadline {
            for path in waiting {
                // A stat per pending document per round; the bytes are read only once its mtime moved, so the
                // poller does not take the CPU the export pass needs.
                let full = exportDirectory + "/v1/" + path
                var status = stat()
                guard stat(full, &status) == 0,
                    Int64(status.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_mtim.tv_nsec)
                        != before[path]?.modifiedNanoseconds
                else { continue }
                if let file = ExportTree.read(full), ExportComparison.carries(tagline, in: file.bytes) {
                    waiting.remove(path)
                    last = MonotonicClock.now()
                }
            }
            if !waiting.isEmpty { usleep(1000) }
        }
        // Give a stray rewrite of an unchanged document the time to show before the final snapshot.
        usleep(UInt32(max(0, settleSeconds) * 1e6))
        let after = ExportTree.snapshot(directory: exportDirectory, rendered: rendered)
        return Outcome(
            baselineExportMilliseconds: baseline, baselineExportReply: String(decoding: baselineReply, as: UTF8.self),
            reloadMilliseconds: Double(replied - reloadStart) / 1e6,
            lastDocumentMilliseconds: waiting.isEmpty ? last.map { Double($0 &- replied) / 1e6 } : nil,
            comparison: ExportComparison(
                before: before, after: after, appId: appId, tagline: tagline, carryingTaglines: carryingTaglines),
            documents: before.count)
    }

    private static func expectSuccess(_ reply: [UInt8], _ method: String) throws(BenchError) {
        if reply.withUnsafeBufferPointer({ ReplyScanner.isError($0) }) {
            throw BenchError("\(method) answered with an error: \(String(decoding: reply.prefix(400), as: UTF8.self))")
        }
    }
}
