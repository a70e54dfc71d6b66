import FoundationEssentials
import ShowcaseAPI
import ShowcaseCore
import Varlink

/// One command's conversation with the daemon: connect, call one method of ShowcaseAPI's interfaces, print.
///
/// With `--json` the reply parameters are printed as received (compact, keys sorted), never
/// re-built from this client's own types, so scripts see every field the daemon sends.
struct Session {
    let options: GlobalOptions
    let environment: [String: String]
    let console: Console

    func execute(_ command: Command) throws(CommandFailure) {
        let socket = try SocketPath.resolve(options, environment: environment)
        switch command {
        case .version:
            return version(socket: socket)
        case .help, .checkConfig, .check, .clientVersion:
            return
        default:
            break
        }
        let daemon = try DaemonConnection(socket)
        let time = RelativeTime(now: Date())
        switch command {
        case .roster(let query):
            try roster(query, daemon: daemon, socket: socket, time: time)
        case .app(let id, let storefront, let host):
            let request = RosterGetAppRequest(id: id, storefront: storefront, host: host)
            let reply = try daemon.call(ShowcaseInterfaces.Method.getApp, request.encoded())
            if options.json { return printJSON(reply) }
            let decoded = try decodeForDisplay(
                RosterGetAppReply.self, from: reply, method: ShowcaseInterfaces.Method.getApp)
            AppView.lines(decoded.app, storefront: storefront.code, console: console).forEach(console.line)
        case .storefronts:
            let reply = try daemon.call(ShowcaseInterfaces.Method.storefronts)
            if options.json { return printJSON(reply) }
            let decoded = try decodeForDisplay(
                RosterStorefrontsReply.self, from: reply, method: ShowcaseInterfaces.Method.storefronts)
            StorefrontsView.lines(decoded, console: console).forEach(console.line)
        case .watch(let storefront):
            try watch(storefront, daemon: daemon, time: time)
        case .status:
            let reply = try daemon.call(ShowcaseInterfaces.Method.status)
            if options.json { return printJSON(reply) }
            let decoded = try decodeForDisplay(
                AdminStatusReply.self, from: reply, method: ShowcaseInterfaces.Method.status)
            StatusView.lines(decoded, time: time, console: console).forEach(console.line)
        case .reload:
            let reply = try daemon.call(ShowcaseInterfaces.Method.reload, timeout: .seconds(60))
            if options.json { return printJSON(reply) }
            let decoded = try decode(AdminReloadReply.self, from: reply, method: ShowcaseInterfaces.Method.reload)
            console.line("reloaded: configuration generation \(decoded.generation) is now serving")
        case .refresh(let storefront):
            try refresh(storefront, daemon: daemon, socket: socket)
        case .export:
            try export(daemon: daemon)
        case .metrics:
            let reply = try daemon.call(ShowcaseInterfaces.Method.metrics)
            if options.json { return printJSON(reply) }
            let decoded = try decode(AdminMetricsReply.self, from: reply, method: ShowcaseInterfaces.Method.metrics)
            // Line by line: the exposition's own line breaks stay, anything else a line holds is escaped.
            let text = decoded.text.hasSuffix("\n") ? String(decoded.text.dropLast()) : decoded.text
            text.split(separator: "\n", omittingEmptySubsequences: false).forEach {
                console.line(String($0).escapingControlCharacters())
            }
        case .changes(let storefront, let host, let since, let limit, let locale):
            let reply = try changes(
                storefront, host: host, since: since, limit: limit, locale: locale, daemon: daemon)
            if options.json { return printJSON(reply) }
            let decoded = try decodeForDisplay(
                RosterChangesReply.self, from: reply, method: ShowcaseInterfaces.Method.changes)
            ChangesView.lines(decoded, since: since, time: time, console: console).forEach(console.line)
        case .version, .help, .checkConfig, .check, .clientVersion:
            break
        }
    }

    // MARK: Commands

    /// `Roster.Changes` until `limit` entries (its default when nil) came, or the daemon has no more: a reply
    /// stays within the socket's reply limit, so a page that did not fit comes as several replies with `more`,
    /// each asked for with `since` = the newest serial of the one before. One reply back, as the daemon would
    /// have sent it whole: every entry newest first, `latest` and `more` of the last page, every field as sent.
    private func changes(
        _ storefront: Storefront, host: String?, since: Int?, limit: Int?, locale: String?,
        daemon: DaemonConnection
    ) throws(CommandFailure) -> JSONValue {
        var wanted = limit ?? RosterChangesRequest.defaultLimit
        var cursor = since
        var pages: [JSONValue] = []
        var last: JSONValue = .emptyObject
        while true {
            let request = RosterChangesRequest(
                storefront: storefront, host: host, since: cursor, limit: wanted, locale: locale)
            last = try daemon.call(ShowcaseInterfaces.Method.changes, request.encoded())
            let page = try decode(RosterChangesReply.self, from: last, method: ShowcaseInterfaces.Method.changes)
            if case .array(let entries)? = last["changes"] { pages.append(contentsOf: entries.reversed()) }
            wanted -= page.changes.count
            // Only forward: a page that brings nothing newer (a daemon misbehaving) ends it.
            guard page.more, wanted > 0, let newest = page.changes.map(\.serial).max(), newest > (cursor ?? -1)
            else { break }
            cursor = newest
        }
        guard pages.count > 0, case .object(var members) = last else { return last }
        members["changes"] = .array(pages.reversed())
        return .object(members)
    }

    private func roster(
        _ query: RosterOptions, daemon: DaemonConnection, socket: SocketLocation, time: RelativeTime
    ) throws(CommandFailure) {
        // The daemon holds the reply up to waitMs, capped by the contract; the client allows that plus its usual
        // margin, and shows and reports the wait the daemon actually holds.
        let request = query.request
        let timeout = Duration.milliseconds(request.heldWaitMs ?? 0) + .seconds(30)
        let progress = request.heldWaitMs.flatMap { milliseconds in
            milliseconds > 0 && ProgressDisplay.isWanted(json: options.json)
                ? WaitProgress(socket: socket, storefront: query.storefront, milliseconds: milliseconds) : nil
        }
        let reply = try ProgressDisplay.run(showing: progress) { () throws(CommandFailure) in
            try daemon.call(ShowcaseInterfaces.Method.get, request.encoded(), timeout: timeout)
        }
        if options.json {
            printJSON(reply)
        } else {
            let decoded = try decodeForDisplay(RosterGetReply.self, from: reply, method: ShowcaseInterfaces.Method.get)
            RosterReplyText.lines(decoded, time: time, console: console).forEach(console.line)
        }
        if reply["state"]?.stringValue == RosterState.warming.rawValue {
            let code = query.storefront.code
            let waited = request.heldWaitMs.map { "after waiting \(RelativeTime.span(Double($0) / 1000))" }
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
        let request = RosterWatchRequest(storefront: storefront)
        Interrupt.exitQuietlyOnInterrupt()
        var failure: CommandFailure?
        var first = true
        try daemon.stream(ShowcaseInterfaces.Method.watch, request.encoded()) { reply in
            if options.json {
                console.lineNow(String(decoding: reply.serialized(), as: UTF8.self))
                return
            }
            do throws(CommandFailure) {
                let decoded = try decodeForDisplay(
                    RosterWatchReply.self, from: reply, method: ShowcaseInterfaces.Method.watch)
                if !first { console.line("") }
                first = false
                let lines = RosterReplyText.lines(decoded, time: RelativeTime(now: Date()), console: console)
                lines.forEach(console.line)
                console.flush()
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    private func refresh(_ storefront: Storefront?, daemon: DaemonConnection, socket: SocketLocation)
        throws(CommandFailure)
    {
        let request = AdminRefreshRequest(storefront: storefront)
        let progress =
            ProgressDisplay.isWanted(json: options.json) ? RefreshProgress(socket: socket, storefront: storefront) : nil
        // Refresh waits for the rate limiter: a full warm of many storefronts takes minutes.
        let reply = try ProgressDisplay.run(showing: progress) { () throws(CommandFailure) in
            try daemon.call(ShowcaseInterfaces.Method.refresh, request.encoded(), timeout: .seconds(3600))
        }
        let decoded = try decode(AdminRefreshReply.self, from: reply, method: ShowcaseInterfaces.Method.refresh)
        if options.json {
            printJSON(reply)
        } else {
            let refreshed = decoded.refreshed.isEmpty ? "nothing" : decoded.refreshed.joined(separator: ", ")
            console.line("refreshed: \(refreshed)".escapingControlCharacters())
            for failed in decoded.failed {
                console.line(
                    console.paint("failed: \(failed.storefront): \(failed.error)".escapingControlCharacters(), .red))
            }
        }
        guard decoded.failed.isEmpty else {
            // What each failed storefront serves now decides the message; Status needs the same rights as Refresh.
            let status = try? decode(
                AdminStatusReply.self, from: daemon.call(ShowcaseInterfaces.Method.status),
                method: ShowcaseInterfaces.Method.status)
            throw CommandFailure(
                message: RefreshFailureMessage.text(decoded.failed, status: status), exitCode: .failure)
        }
    }

    private func export(daemon: DaemonConnection) throws(CommandFailure) {
        // The pass waits for one in progress; even 173 storefronts take well under a second each.
        let reply = try daemon.call(ShowcaseInterfaces.Method.export, timeout: .seconds(120))
        let decoded = try decode(AdminExportReply.self, from: reply, method: ShowcaseInterfaces.Method.export)
        if options.json {
            printJSON(reply)
        } else {
            console.line(
                ("exported to \(decoded.directory): \(decoded.written) written, \(decoded.unchanged) unchanged, "
                    + "\(decoded.removed) removed").escapingControlCharacters())
            for error in decoded.errors {
                console.line(console.paint("failed: \(error)".escapingControlCharacters(), .red))
            }
        }
        guard decoded.errors.isEmpty else {
            let count = decoded.errors.count
            throw CommandFailure(
                message: "the export is incomplete: \(count) \(count == 1 ? "file" : "files") could not be written "
                    + "or removed (\(decoded.errors[0])); the previous versions stay in place; fix the cause and "
                    + "run showcasectl export again",
                exitCode: .failure)
        }
    }

    /// Prints this client's version, then the daemon's from `org.varlink.service.GetInfo` when it
    /// answers; a daemon that does not is reported, not an error, since the client's version is
    /// still worth printing.
    private func version(socket: SocketLocation) {
        var info: JSONValue?
        var problem: CommandFailure?
        do {
            let daemon = try DaemonConnection(socket)
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
            console.line("showcased \(version) at \(socket.path)".escapingControlCharacters())
        } else {
            // "Not running" is the expected answer here; anything else (permissions, a foreign
            // service on the socket) is worth its own sentence.
            let reason = problem.flatMap { $0.exitCode == .unavailable ? nil : $0.message }
            let place = reason == nil ? socket.triedDescription : socket.path
            console.line(
                ("showcased: not reachable at \(place)" + (reason.map { " (\($0))" } ?? "")).escapingControlCharacters()
            )
        }
    }

    // MARK: Helpers

    private func printJSON(_ value: JSONValue) {
        console.line(String(decoding: value.serialized(), as: UTF8.self))
    }

    /// Reads `method`'s reply for a view: the copy with control characters escaped
    /// (`JSONValue.escapingControlCharacters()`), the only form of daemon data tables and lines are made of.
    private func decodeForDisplay<T: APIValue>(_ type: T.Type, from value: JSONValue, method: String)
        throws(CommandFailure) -> T
    {
        try decode(type, from: value.escapingControlCharacters(), method: method)
    }

    /// Reads `method`'s reply, or fails naming the method (`Status`) and the field that did not fit.
    private func decode<T: APIValue>(_ type: T.Type, from value: JSONValue, method: String) throws(CommandFailure)
        -> T
    {
        do {
            return try T(decoding: value)
        } catch {
            let name = method.split(separator: ".").last.map(String.init) ?? method
            throw CommandFailure(
                message: "could not read the daemon's \(name) reply (\(error)); "
                    + "showcasectl and showcased versions differ? compare with: showcasectl version",
                exitCode: .failure)
        }
    }
}
