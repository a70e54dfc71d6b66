import Foundation
import ShowcaseCore
import Varlink

/// One command's conversation with the daemon: connect, call the method of SPEC §8, print.
///
/// With `--json` the reply parameters are printed as received (compact, keys sorted), never
/// re-built from this client's own types, so scripts see every field the daemon sends.
struct Session {
    let options: GlobalOptions
    let environment: [String: String]
    let console: Console

    func execute(_ command: Command) throws(CommandFailure) {
        let socketPath = try SocketPath.resolve(options, environment: environment)
        switch command {
        case .version:
            return version(socketPath: socketPath)
        case .help, .checkConfig:
            return
        default:
            break
        }
        let daemon = try DaemonConnection(socketPath: socketPath)
        let time = RelativeTime(now: Date())
        switch command {
        case .roster(let query):
            try roster(query, daemon: daemon, time: time)
        case .app(let id, let storefront, let host):
            var parameters: [String: JSONValue] = ["id": .int(Int64(id)), "storefront": .string(storefront.code)]
            if let host { parameters["host"] = .string(host) }
            let reply = try daemon.call("io.showcase.Roster.GetApp", parameters)
            if options.json { return printJSON(reply) }
            struct AppReply: Decodable { let app: AppRow }
            let app = try decode(AppReply.self, from: reply, method: "GetApp").app
            AppView.lines(app, storefront: storefront.code, console: console).forEach(console.line)
        case .storefronts:
            let reply = try daemon.call("io.showcase.Roster.Storefronts")
            if options.json { return printJSON(reply) }
            let decoded = try decode(StorefrontsReply.self, from: reply, method: "Storefronts")
            StorefrontsView.lines(decoded, console: console).forEach(console.line)
        case .watch(let storefront):
            try watch(storefront, daemon: daemon, time: time)
        case .status:
            let reply = try daemon.call("io.showcase.Admin.Status")
            if options.json { return printJSON(reply) }
            let decoded = try decode(StatusReply.self, from: reply, method: "Status")
            StatusView.lines(decoded, time: time, console: console).forEach(console.line)
        case .reload:
            let reply = try daemon.call("io.showcase.Admin.Reload", timeout: .seconds(60))
            if options.json { return printJSON(reply) }
            let generation = reply["generation"]?.intValue.map(String.init) ?? "?"
            console.line("reloaded: configuration generation \(generation) is now serving")
        case .refresh(let storefront):
            try refresh(storefront, daemon: daemon)
        case .version, .help, .checkConfig:
            break
        }
    }

    // MARK: Commands

    private func roster(_ query: RosterQuery, daemon: DaemonConnection, time: RelativeTime) throws(CommandFailure) {
        var parameters: [String: JSONValue] = ["storefront": .string(query.storefront.code)]
        if let host = query.host { parameters["host"] = .string(host) }
        if let platform = query.platform { parameters["platform"] = .string(platform.rawValue) }
        if let osVersion = query.osVersion { parameters["osVersion"] = .string(osVersion) }
        if let locale = query.locale { parameters["locale"] = .string(locale) }
        if let wait = query.waitMilliseconds { parameters["waitMs"] = .int(Int64(wait)) }
        // The daemon holds the reply up to waitMs; the client allows that plus its usual margin.
        let timeout = Duration.milliseconds(query.waitMilliseconds ?? 0) + .seconds(30)
        let reply = try daemon.call("io.showcase.Roster.Get", parameters, timeout: timeout)
        if options.json {
            printJSON(reply)
        } else {
            let decoded = try decode(RosterReply.self, from: reply, method: "Get")
            RosterView.lines(decoded, time: time, console: console).forEach(console.line)
        }
        if reply["state"]?.stringValue == "warming" {
            let code = query.storefront.code
            let waited = query.waitMilliseconds.map { "after waiting \(RelativeTime.span(Double($0) / 1000))" }
            throw CommandFailure(
                message: "the \(code) roster is still warming \(waited ?? "(never fetched yet)"); "
                    + "wait for it with: showcasectl roster --storefront \(code) --wait 30, "
                    + "or see why with: showcasectl status",
                exitCode: .tempFailure)
        }
    }

    private func watch(_ storefront: Storefront?, daemon: DaemonConnection, time: RelativeTime)
        throws(CommandFailure)
    {
        var parameters: [String: JSONValue] = [:]
        if let storefront { parameters["storefront"] = .string(storefront.code) }
        Interrupt.exitQuietlyOnInterrupt()
        var failure: CommandFailure?
        var first = true
        try daemon.stream("io.showcase.Roster.Watch", parameters) { reply in
            if options.json {
                console.lineNow(String(decoding: reply.serialized(), as: UTF8.self))
                return
            }
            do throws(CommandFailure) {
                let decoded = try decode(RosterReply.self, from: reply, method: "Watch")
                if !first { console.line("") }
                first = false
                let lines = RosterView.lines(decoded, time: RelativeTime(now: Date()), console: console)
                lines.forEach(console.line)
                console.flush()
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    private func refresh(_ storefront: Storefront?, daemon: DaemonConnection) throws(CommandFailure) {
        var parameters: [String: JSONValue] = [:]
        if let storefront { parameters["storefront"] = .string(storefront.code) }
        // Refresh waits for the rate limiter: a full warm of many storefronts takes minutes.
        let reply = try daemon.call("io.showcase.Admin.Refresh", parameters, timeout: .seconds(3600))
        let decoded = try decode(RefreshReply.self, from: reply, method: "Refresh")
        if options.json {
            printJSON(reply)
        } else {
            let refreshed = decoded.refreshed.isEmpty ? "nothing" : decoded.refreshed.joined(separator: ", ")
            console.line("refreshed: \(refreshed)")
            for failed in decoded.failed {
                console.line(console.paint("failed: \(failed.storefront): \(failed.error)", .red))
            }
        }
        guard decoded.failed.isEmpty else {
            let list = decoded.failed.map { "\($0.storefront) (\($0.error))" }.joined(separator: ", ")
            throw CommandFailure(
                message: "refresh failed for \(list); the cached roster is still served; "
                    + "see showcasectl status for each storefront's last error",
                exitCode: .failure)
        }
    }

    /// Prints this client's version, then the daemon's from `org.varlink.service.GetInfo` when it
    /// answers; a daemon that does not is reported, not an error, since the client's version is
    /// still worth printing.
    private func version(socketPath: String) {
        var info: JSONValue?
        var problem: CommandFailure?
        do {
            let daemon = try DaemonConnection(socketPath: socketPath)
            info = try daemon.call("org.varlink.service.GetInfo", timeout: .seconds(5))
        } catch {
            problem = error
        }
        if options.json {
            let client: JSONValue = ["product": "showcasectl", "version": .string(CommandRunner.version)]
            printJSON(["showcasectl": client, "showcased": info ?? .null])
            return
        }
        console.line("showcasectl \(CommandRunner.version)")
        if let info {
            let version = info["version"]?.stringValue ?? "?"
            console.line("showcased \(version) at \(socketPath)")
        } else {
            // "Not running" is the expected answer here; anything else (permissions, a foreign
            // service on the socket) is worth its own sentence.
            let reason = problem.flatMap { $0.exitCode == .unavailable ? nil : $0.message }
            console.line("showcased: not reachable at \(socketPath)" + (reason.map { " (\($0))" } ?? ""))
        }
    }

    // MARK: Helpers

    private func printJSON(_ value: JSONValue) {
        console.line(String(decoding: value.serialized(), as: UTF8.self))
    }

    private func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, method: String) throws(CommandFailure) -> T
    {
        do {
            return try value.decode(T.self)
        } catch {
            throw CommandFailure(
                message: "could not read the daemon's \(method) reply (a field is missing or has another type); "
                    + "showcasectl and showcased versions differ? compare with: showcasectl version",
                exitCode: .failure)
        }
    }
}
