import Foundation

/// The subcommands of `showcase-bench`. Each prints one JSON object on stdout (what `scripts/bench.sh`
/// collects) and, where useful, a readable line on stderr.
enum BenchCommands {
    static let usage = """
        usage: showcase-bench COMMAND [FLAGS]
          load --socket PATH (--call JSON | --call-file FILE) [--connections 16] [--depth 1] [--threads 2]
               [--warmup 1] [--duration 5] [--calls N] [--label TEXT]
              Drives a Varlink socket and reports calls/s and latency p50/p90/p99/max (ms).
          floor --socket PATH --reply-file FILE
              The transport floor: answers every call with the bytes of FILE.
          call --socket PATH --call JSON [--out FILE] [--timeout SECONDS]
              One call; writes the reply (without NUL) to FILE or stdout.
          fake-reply --apps N [--out FILE]
              A stand-in Roster.Get reply with N apps (for proving the harness without the daemon).
        """

    static func run(_ arguments: [String]) -> Int32 {
        guard let command = arguments.first else {
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            return 64
        }
        let rest = arguments.dropFirst()
        do throws(BenchError) {
            switch command {
            case "load": try load(rest)
            case "floor": try floor(rest)
            case "call": try call(rest)
            case "fake-reply": try fakeReply(rest)
            case "help", "--help", "-h": print(usage)
            default: throw BenchError("unknown command '\(command)'; see showcase-bench --help")
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("showcase-bench \(command): \(error.description)\n".utf8))
            return 1
        }
    }

    static func load(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(
            rest,
            known: [
                "socket", "call", "call-file", "connections", "depth", "threads", "warmup", "duration", "calls",
                "label",
            ])
        var options = LoadOptions(socketPath: try arguments.required("socket"), call: try callBytes(arguments))
        options.connections = try arguments.int("connections", default: options.connections)
        options.depth = try arguments.int("depth", default: options.depth)
        options.threads = try arguments.int("threads", default: options.threads)
        options.warmupSeconds = try arguments.double("warmup", default: options.warmupSeconds)
        options.durationSeconds = try arguments.double("duration", default: options.durationSeconds)
        if arguments.string("calls") != nil { options.totalCalls = try arguments.int("calls", default: 0) }
        let result = try LoadGenerator.run(options)
        let label = arguments.string("label") ?? "load"
        let summary = LatencySummary(samples: result.latencies)
        let line = String(
            format: "%@: %.0f calls/s, p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, max %.3f ms, %d errors, %d lost\n",
            label, result.callsPerSecond, Double(summary.p50) / 1e6, Double(summary.p90) / 1e6,
            Double(summary.p99) / 1e6, Double(summary.max) / 1e6, result.totalErrors,
            result.unanswered + result.failedConnections)
        FileHandle.standardError.write(Data(line.utf8))
        print(
            result.json(
                label: label,
                extra: [
                    ("connections", String(options.connections)), ("depth", String(options.depth)),
                    ("threads", String(options.threads)),
                ]))
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

    private static func callBytes(_ arguments: Arguments) throws(BenchError) -> [UInt8] {
        var bytes: [UInt8]
        if let call = arguments.string("call") {
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

    private static func write(_ data: Data, to path: String?) throws(BenchError) {
        guard let path else {
            FileHandle.standardOutput.write(data)
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: data) else {
            throw BenchError("cannot write \(path); check the directory exists")
        }
    }
}
