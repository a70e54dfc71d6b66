import Foundation

/// The scale rows (varied calls, Watch fan-out) and the small helper subcommands: `gen-calls`, `median-reply`,
/// `watch-fanout`, `upstream-count`, `floor`, `call`, `fake-reply`.
extension BenchCommands {
    static func generateCalls(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(rest, known: ["storefronts", "out"])
        let rotation = try CallRotation(
            dimensions: CallRotation.standard(storefronts: try storefrontCodes(try arguments.required("storefronts"))))
        try write(Data(rotation.text.utf8), to: arguments.string("out"))
    }

    static func medianReply(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(rest, known: ["socket", "rotation-file", "out", "label"])
        let file = try arguments.required("rotation-file")
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw BenchError("cannot read the rotation file \(file)")
        }
        let rotation = try CallRotation(text: text)
        var replies: [[UInt8]] = []
        var errors = 0
        for call in rotation.calls {
            let reply = try VarlinkProbe.call(socketPath: try arguments.required("socket"), call)
            if reply.withUnsafeBufferPointer({ ReplyScanner.isError($0) }) { errors += 1 }
            replies.append(reply)
        }
        let sorted = replies.sorted { $0.count < $1.count }
        let median = sorted[sorted.count / 2]
        try write(Data(median), to: arguments.string("out"))
        print(
            JSONText.object([
                ("label", JSONText.string(arguments.string("label") ?? "varied-replies")),
                ("calls", String(replies.count)), ("errors", String(errors)),
                ("minBytes", String(sorted.first?.count ?? 0)), ("medianBytes", String(median.count)),
                ("maxBytes", String(sorted.last?.count ?? 0)),
            ]))
        if errors > 0 { throw BenchError("\(errors) of the varied calls were answered with an error") }
    }

    static func watchFanout(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(
            rest,
            known: [
                "socket", "subscribers", "storefront", "cache-dir", "cache-prefix", "server-pid", "timeout", "label",
                "before-refresh",
            ])
        let hook = arguments.string("before-refresh")
        let storefront = arguments.string("storefront") ?? "us"
        let outcome = try FanoutProbe.run(
            socketPath: try arguments.required("socket"),
            subscribers: try arguments.int("subscribers", default: 1000),
            watchCall:
                #"{"method":"io.showcase.Roster.Watch","parameters":{"storefront":"\#(storefront)"},"more":true}"#,
            refreshCall: #"{"method":"io.showcase.Admin.Refresh","parameters":{"storefront":"\#(storefront)"}}"#,
            cacheDirectory: try arguments.required("cache-dir"), cachePrefix: try arguments.required("cache-prefix"),
            serverPid: Int32(try arguments.int("server-pid", default: 0)),
            timeoutSeconds: try arguments.double("timeout", default: 30),
            beforeRefresh: { () throws(BenchError) in
                guard let hook else { return }
                let status = try ChildProcess.spawn(["/bin/sh", "-c", hook], logPath: nil).wait()
                guard status == 0 else { throw BenchError("--before-refresh '\(hook)' failed (exit status \(status))") }
            })
        let timing = outcome.timing
        let label = arguments.string("label") ?? "fanout"
        FileHandle.standardError.write(
            Data(
                String(
                    format: "%@: %d of %d subscribers got revision %d (from %d); after the cache write first %.1f ms, "
                        + "p50 %.1f ms, p99 %.1f ms, max %.1f ms; RSS %.1f MB; refresh %.1f ms\n",
                    label, timing.received, timing.received + timing.missing, outcome.revisionAfter,
                    outcome.revisionBefore, Double(timing.first) / 1e6, Double(timing.p50) / 1e6,
                    Double(timing.p99) / 1e6,
                    Double(timing.max) / 1e6, Double(outcome.rssKiB) * 1024 / 1e6, outcome.refreshMilliseconds
                ).utf8))
        print(
            JSONText.object([
                ("label", JSONText.string(label)), ("subscribers", String(timing.received + timing.missing)),
                ("received", String(timing.received)), ("missing", String(timing.missing)),
                ("errors", String(outcome.errors)),
                ("revisionBefore", String(outcome.revisionBefore)), ("revisionAfter", String(outcome.revisionAfter)),
                ("firstMs", JSONText.number(Double(timing.first) / 1e6, decimals: 3)),
                ("p50Ms", JSONText.number(Double(timing.p50) / 1e6, decimals: 3)),
                ("p99Ms", JSONText.number(Double(timing.p99) / 1e6, decimals: 3)),
                ("maxMs", JSONText.number(Double(timing.max) / 1e6, decimals: 3)),
                ("rssKiB", String(outcome.rssKiB)), ("rssBeforeKiB", String(outcome.rssBeforeKiB)),
                ("refreshMs", JSONText.number(outcome.refreshMilliseconds, decimals: 2)),
                ("refreshReply", JSONText.string(outcome.refreshReply)),
            ]))
    }

    static func upstreamCount(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(rest, known: ["replay", "label", "storefronts", "hosts"])
        let base = try arguments.required("replay")
        let requests = try ReplayLog.fetch(baseURL: base)
        let identity = requests.filter { $0["bundleId"] != nil }.count
        let roster = requests.filter { $0["id"] != nil && $0["entity"] == "software" }.count
        print(
            JSONText.object([
                ("label", JSONText.string(arguments.string("label") ?? "upstream")),
                ("requests", String(requests.count)), ("identity", String(identity)), ("roster", String(roster)),
                ("other", String(requests.count - identity - roster)),
                ("storefronts", String(try arguments.int("storefronts", default: -1))),
                ("hosts", String(try arguments.int("hosts", default: -1))),
            ]))
    }

    /// `us,de,jp` as given (lowercased).
    static func storefrontCodes(_ text: String) throws(BenchError) -> [String] {
        let codes = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard !codes.isEmpty, codes.allSatisfy({ $0.count == 2 }) else {
            throw BenchError("--storefronts needs alpha-2 codes separated by commas, like us,de,jp")
        }
        return codes
    }

    static func floor(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(rest, known: ["socket", "reply-file"])
        let path = try arguments.required("reply-file")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError("cannot read the reply file \(path); capture one with showcase-bench call --out")
        }
        let server = try FloorServer(socketPath: try arguments.required("socket"), replyBytes: [UInt8](data))
        server.run()
    }

    static func call(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(rest, known: ["socket", "call", "out", "timeout"])
        let reply = try VarlinkProbe.call(
            socketPath: try arguments.required("socket"), try arguments.required("call"),
            timeoutSeconds: try arguments.double("timeout", default: 10))
        try write(Data(reply), to: arguments.string("out"))
    }

    static func fakeReply(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(rest, known: ["apps", "out"])
        let reply = RosterReplyGenerator.reply(apps: try arguments.int("apps", default: 30))
        try write(Data(reply.utf8), to: arguments.string("out"))
    }

    static func callBytes(_ arguments: Arguments) throws(BenchError) -> [UInt8] {
        var bytes: [UInt8]
        if arguments.string("call") == nil, arguments.string("call-file") == nil,
            let file = arguments.string("rotation-file")
        {
            // A varied load: the first call of the rotation stands for the load where one call is needed.
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw BenchError("cannot read the rotation file \(file); write one with showcase-bench gen-calls")
            }
            bytes = Array(try CallRotation(text: text).calls[0].utf8)
        } else if let call = arguments.string("call") {
            bytes = Array(call.utf8)
        } else if let file = arguments.string("call-file") {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw BenchError("cannot read the call file \(file)")
            }
            bytes = [UInt8](data)
        } else {
            throw BenchError("--call JSON or --call-file FILE is required")
        }
        while let last = bytes.last, last == 0 || last == 0x0A { bytes.removeLast() }
        bytes.append(0)
        return bytes
    }

    static func write(_ data: Data, to path: String?) throws(BenchError) {
        guard let path else {
            FileHandle.standardOutput.write(data)
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            throw BenchError("cannot write \(path); check the directory exists")
        }
    }
}
