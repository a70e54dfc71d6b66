import Foundation
import ShowcaseCore

/// The subcommands of `showcase-bench`. Each prints one JSON object on stdout (what `scripts/bench.sh`
/// collects) and, where useful, a readable line on stderr.
enum BenchCommands {
    static let usage = """
        usage: showcase-bench COMMAND [FLAGS]
          load --socket PATH (--call JSON | --call-file FILE | --rotation-file FILE) [--connections 16] [--depth 1] [--threads 1]
               [--warmup 1] [--duration 5] [--calls N] [--label TEXT]
              Drives a Varlink socket and reports calls/s and latency p50/p90/p99/max (ms).
          floor --socket PATH --reply-file FILE
              The transport floor: answers every call with the bytes of FILE.
          call --socket PATH --call JSON [--out FILE] [--timeout SECONDS]
              One call; writes the reply (without NUL) to FILE or stdout.
          fake-reply --apps N [--out FILE]
              A stand-in Roster.Get reply with N apps (for proving the harness without the daemon).
          startup --socket PATH --call JSON [--touch-file FILE] [--log FILE] [--timeout 20] [--settle 0.5] -- CMD…
              Exec to ready (first reply to JSON), then RSS after sending every call in FILE, then SIGTERM.
          exec-time [--runs 21] [--warmups 2] [--log FILE] -- CMD…
              End-to-end time of a command, median of the runs.
          reload --socket PATH --call JSON [load flags] [--reload-at 1] [--check-call JSON --expect TEXT]
              Admin.Reload while the load runs: reload latency and every failed call.
          wait-fresh --socket PATH [--timeout 60]
              Polls Admin.Status until every storefront is fresh.
          gen-lookup --template FILE --dir DIR --storefronts us,de,…|all [--apps 30] [--hosts 1]
              Lookup responses for the bench developer, named for lookup-replay.
          gen-cache --template FILE --dir DIR --storefronts all|us,de,… [--apps 200] [--hosts 1] [--developers 1]
                    [--touch-file F] [--hosts-file H] [--local-prices] [--artwork-prefix URL]
              Fresh rosters written in ShowcaseCore's FileCache format, per developer; F gets one Roster.Get per
              storefront (per host and storefront with several developers), H the host bundle ids. --local-prices:
              each storefront's own currency and price label in every row, as in a real catalog. --artwork-prefix:
              artwork URLs under URL instead of Apple's CDN (lookup-replay --serve-icons draws them offline).
          gen-calls --storefronts us,de,… [--out FILE]
              The varied-calls rotation: one Roster.Get per line, each differing from the one before.
          median-reply --socket PATH --rotation-file FILE [--out REPLY]
              Calls each call of the rotation once; writes the reply of median size (the floor's baseline).
          watch-fanout --socket PATH --cache-dir DIR --cache-prefix NAME [--subscribers 1000] [--storefront us]
                       [--server-pid PID] [--timeout 30] [--before-refresh COMMAND]
              Subscribers Watch one storefront; Admin.Refresh; when each got the new revision after the cache write.
              COMMAND (run by /bin/sh once every subscriber has its first state) marks the refresh for a profiler.
          export-reload --socket PATH --export-dir DIR --overlay FILE [--app-id ID] [--tagline TEXT] [--timeout 10]
                        [--settle 0.5] [--rendered .html,.email.html,.atom] [--carrying-taglines .html,.email.html]
                        [--site]
              Admin.Export twice (the second is the baseline), then an overlay with one new tagline and Admin.Reload:
              when the last document listing the app carries it, and how many other documents were rewritten.
              --rendered: files beside the documents to compare too; --carrying-taglines: those of them that show
              taglines, so they must change with their document. --site: site/ too (SPEC §18): every page naming
              the app must carry the tagline and sitemap.xml be rewritten; every other page keeps inode and mtime.
          upstream-count --replay URL
              Counts the lookup requests lookup-replay recorded, by kind.
          report --results FILE [--json OUT]
              The BENCHMARKS.md table from the collected results.
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
            case "startup": try startup(rest)
            case "exec-time": try execTime(rest)
            case "reload": try reload(rest)
            case "wait-fresh": try waitFresh(rest)
            case "gen-lookup": try generateLookup(rest)
            case "gen-cache": try generateCache(rest)
            case "gen-calls": try generateCalls(rest)
            case "median-reply": try medianReply(rest)
            case "watch-fanout": try watchFanout(rest)
            case "upstream-count": try upstreamCount(rest)
            case "export-reload": try exportReload(rest)
            case "report": try BenchReport.run(rest)
            case "help", "--help", "-h": print(usage)
            default: throw BenchError("unknown command '\(command)'; see showcase-bench --help")
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("showcase-bench \(command): \(error.description)\n".utf8))
            return 1
        }
    }

    static let loadFlags: Set<String> = [
        "socket", "call", "call-file", "connections", "depth", "threads", "warmup", "duration", "calls", "label",
        "server-pid", "rotation-file",
    ]

    static func loadOptions(_ arguments: Arguments) throws(BenchError) -> LoadOptions {
        var options = LoadOptions(socketPath: try arguments.required("socket"), call: try callBytes(arguments))
        options.connections = try arguments.int("connections", default: options.connections)
        options.depth = try arguments.int("depth", default: options.depth)
        options.threads = try arguments.int("threads", default: options.threads)
        options.warmupSeconds = try arguments.double("warmup", default: options.warmupSeconds)
        options.durationSeconds = try arguments.double("duration", default: options.durationSeconds)
        if arguments.string("calls") != nil { options.totalCalls = try arguments.int("calls", default: 0) }
        if arguments.string("server-pid") != nil {
            options.serverPid = Int32(try arguments.int("server-pid", default: 0))
        }
        if let file = arguments.string("rotation-file") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw BenchError("cannot read the rotation file \(file); write one with showcase-bench gen-calls")
            }
            options.rotation = try CallRotation(text: text).calls.map { Array($0.utf8) + [0] }
        }
        return options
    }

    static func load(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(rest, known: loadFlags)
        let options = try loadOptions(arguments)
        let result = try LoadGenerator.run(options)
        let label = arguments.string("label") ?? "load"
        FileHandle.standardError.write(Data(summaryLine(label, result).utf8))
        print(
            result.json(
                label: label,
                extra: [
                    ("connections", String(options.connections)), ("depth", String(options.depth)),
                    ("threads", String(options.threads)),
                ]))
    }

    static func summaryLine(_ label: String, _ result: LoadResult) -> String {
        let summary = LatencySummary(samples: result.latencies)
        return String(
            format: "%@: %.0f calls/s, p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, max %.3f ms, %d errors, %d lost\n",
            label, result.callsPerSecond, Double(summary.p50) / 1e6, Double(summary.p90) / 1e6,
            Double(summary.p99) / 1e6, Double(summary.max) / 1e6, result.totalErrors,
            result.unanswered + result.failedConnections)
    }

    static func startup(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(
            rest, known: ["socket", "call", "touch-file", "log", "timeout", "settle", "label"])
        var touches: [String] = []
        if let file = arguments.string("touch-file") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw BenchError("cannot read the touch file \(file)")
            }
            touches = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        }
        let outcome = try StartupProbe.run(
            command: arguments.trailing, socketPath: try arguments.required("socket"),
            call: try arguments.required("call"), touchCalls: touches, logPath: arguments.string("log"),
            timeoutSeconds: try arguments.double("timeout", default: 20),
            settleSeconds: try arguments.double("settle", default: 0.5))
        let label = arguments.string("label") ?? "startup"
        FileHandle.standardError.write(
            Data(
                String(
                    format: "%@: ready in %.1f ms (first reply: %@), RSS %.1f MB (peak %.1f MB), %d touch errors\n",
                    label, outcome.readyMilliseconds, outcome.firstReplyState, Double(outcome.rssKiB) * 1024 / 1e6,
                    Double(outcome.peakKiB) * 1024 / 1e6, outcome.touchErrors
                ).utf8))
        print(
            JSONText.object([
                ("label", JSONText.string(label)),
                ("readyMs", JSONText.number(outcome.readyMilliseconds, decimals: 2)),
                ("readyCpuMs", JSONText.number(outcome.readyCPUMilliseconds, decimals: 0)),
                ("firstReplyState", JSONText.string(outcome.firstReplyState)),
                ("touched", String(touches.count)), ("touchErrors", String(outcome.touchErrors)),
                ("readyRssKiB", String(outcome.readyRssKiB)), ("rssKiB", String(outcome.rssKiB)),
                ("peakKiB", String(outcome.peakKiB)),
                ("exitStatus", String(outcome.exitStatus)),
            ]))
    }

    static func execTime(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(rest, known: ["runs", "warmups", "log", "label"])
        let outcome = try CommandTimer.run(
            command: arguments.trailing, runs: try arguments.int("runs", default: 21),
            warmups: try arguments.int("warmups", default: 2), logPath: arguments.string("log"))
        let summary = LatencySummary(samples: outcome.runs)
        let label = arguments.string("label") ?? "exec-time"
        FileHandle.standardError.write(
            Data(
                String(
                    format: "%@: median %.2f ms, p90 %.2f ms, max %.2f ms over %d runs, %d failed\n", label,
                    Double(summary.p50) / 1e6, Double(summary.p90) / 1e6, Double(summary.max) / 1e6,
                    outcome.runs.count, outcome.failures
                ).utf8))
        print(
            JSONText.object([
                ("label", JSONText.string(label)), ("runs", String(outcome.runs.count)),
                ("failures", String(outcome.failures)), ("lastStatus", String(outcome.lastStatus)),
                ("medianMs", JSONText.milliseconds(summary.p50)), ("p90Ms", JSONText.milliseconds(summary.p90)),
                ("maxMs", JSONText.milliseconds(summary.max)),
                ("minMs", JSONText.milliseconds(outcome.runs.min() ?? 0)),
            ]))
    }

    static func reload(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(rest, known: loadFlags.union(["reload-at", "check-call", "expect"]))
        var options = try loadOptions(arguments)
        if arguments.string("warmup") == nil { options.warmupSeconds = 0 }
        let outcome = try ReloadProbe.run(
            load: options, reloadAtSeconds: try arguments.double("reload-at", default: 1),
            checkCall: arguments.string("check-call"), expectAfter: arguments.string("expect"))
        let label = arguments.string("label") ?? "reload"
        FileHandle.standardError.write(
            Data(
                String(
                    format: "%@: reload %.2f ms, generation %d → %d, applied: %@; load: %@", label,
                    outcome.reloadMilliseconds, outcome.generationBefore, outcome.generationAfter,
                    outcome.appliedAfterReload.map { $0 ? "yes" : "NO" } ?? "not checked",
                    summaryLine("during reload", outcome.load)
                ).utf8))
        print(
            outcome.load.json(
                label: label,
                extra: [
                    ("reloadMs", JSONText.number(outcome.reloadMilliseconds, decimals: 2)),
                    ("generationBefore", String(outcome.generationBefore)),
                    ("generationAfter", String(outcome.generationAfter)),
                    ("applied", outcome.appliedAfterReload.map { $0 ? "true" : "false" } ?? "null"),
                    ("reloadError", outcome.reloadError.map(JSONText.string) ?? "null"),
                ]))
    }

    static func waitFresh(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(rest, known: ["socket", "timeout", "label"])
        let outcome = try StatusWaiter.waitUntilFresh(
            socketPath: try arguments.required("socket"), timeoutSeconds: try arguments.double("timeout", default: 60))
        print(
            JSONText.object([
                ("label", JSONText.string(arguments.string("label") ?? "wait-fresh")),
                ("seconds", JSONText.number(outcome.seconds, decimals: 3)),
                ("storefronts", String(outcome.storefronts)), ("fresh", String(outcome.fresh)),
                ("timedOut", outcome.timedOut ? "true" : "false"),
            ]))
        if outcome.timedOut {
            throw BenchError(
                "only \(outcome.fresh) of \(outcome.storefronts) storefronts were fresh after \(outcome.seconds) s")
        }
    }

    static func generateLookup(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(rest, known: ["template", "dir", "storefronts", "apps", "hosts"])
        let generator = try LookupFixtureGenerator(templatePath: try arguments.required("template"))
        let directory = try arguments.required("dir")
        let apps = try arguments.int("apps", default: 30)
        let hosts = try arguments.int("hosts", default: 1)
        let list = try arguments.required("storefronts")
        let codes = list == "all" ? Storefront.all.map(\.code) : try storefrontCodes(list)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        func save(_ data: Data, _ name: String) throws(BenchError) {
            guard FileManager.default.createFile(atPath: directory + "/" + name, contents: data) else {
                throw BenchError("cannot write \(directory)/\(name)")
            }
        }
        for code in codes {
            try save(
                generator.rosterBody(apps: apps, storefront: code),
                "roster-\(LookupFixtureGenerator.artistId)-\(code).json")
            for host in 0..<hosts {
                try save(
                    generator.identityBody(appIndex: host, storefront: code),
                    "identity-\(LookupFixtureGenerator.bundleId(host))-\(code).json")
            }
        }
        try save(Data("{\"resultCount\":0,\"results\":[]}".utf8), "empty.json")
        print(
            JSONText.object([
                ("label", JSONText.string("gen-lookup")), ("storefronts", String(codes.count)),
                ("apps", String(apps)), ("hosts", String(hosts)),
            ]))
    }

    static func generateCache(_ rest: ArraySlice<String>) throws(BenchError) {
        let arguments = try Arguments(
            rest,
            known: [
                "template", "dir", "storefronts", "apps", "hosts", "developers", "touch-file", "hosts-file", "label",
                "artwork-prefix",
            ], switches: ["local-prices"])
        let template = try arguments.required("template")
        let directory = try arguments.required("dir")
        let developers = try arguments.int("developers", default: 1)
        guard developers >= 1, developers < 1000 else { throw BenchError("--developers needs 1 to 999") }
        let start = MonotonicClock.now()
        var outcomes: [CacheGenerator.Outcome] = []
        for developer in 0..<developers {
            let generator = try LookupFixtureGenerator(templatePath: template, developer: developer)
            outcomes.append(
                try CacheGenerator.run(
                    generator: generator, directory: directory, storefronts: try arguments.required("storefronts"),
                    apps: try arguments.int("apps", default: 200), hosts: try arguments.int("hosts", default: 1),
                    localPrices: arguments.flag("local-prices"), artworkPrefix: arguments.string("artwork-prefix")))
        }
        let storefronts = outcomes.first?.storefronts ?? []
        let hosts = outcomes.flatMap(\.hosts)
        if let touchFile = arguments.string("touch-file") {
            // One developer: one Get per storefront, as the daemon's default host. Several: one per (host, storefront).
            let calls =
                developers == 1
                ? storefronts.map { #"{"method":"io.showcase.Roster.Get","parameters":{"storefront":"\#($0.code)"}}"# }
                : hosts.flatMap { host in
                    storefronts.map {
                        #"{"method":"io.showcase.Roster.Get","parameters":{"storefront":"\#($0.code)","host":"\#(host)"}}"#
                    }
                }
            guard
                FileManager.default.createFile(
                    atPath: touchFile, contents: Data((calls.joined(separator: "\n") + "\n").utf8))
            else { throw BenchError("cannot write \(touchFile)") }
        }
        if let hostsFile = arguments.string("hosts-file") {
            guard
                FileManager.default.createFile(
                    atPath: hostsFile, contents: Data((hosts.joined(separator: "\n") + "\n").utf8))
            else { throw BenchError("cannot write \(hostsFile)") }
        }
        print(
            JSONText.object([
                ("label", JSONText.string(arguments.string("label") ?? "gen-cache")),
                ("storefronts", String(storefronts.count)),
                ("apps", String(try arguments.int("apps", default: 200))), ("developers", String(developers)),
                ("hosts", String(hosts.count)),
                ("bodyBytes", String(outcomes.map(\.bytes).reduce(0, +))),
                ("seconds", JSONText.number(Double(MonotonicClock.now() - start) / 1e9, decimals: 2)),
            ]))
    }
}
