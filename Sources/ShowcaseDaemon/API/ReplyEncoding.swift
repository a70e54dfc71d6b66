import FoundationEssentials
import ShowcaseAPI
import ShowcaseConfig
import ShowcaseCore
import ShowcaseExport
import ShowcaseHistory
import Varlink

/// Every reply the daemon's methods send, as Varlink values and errors: the one file that knows the wire shape of
/// rosters, apps, Status, Refresh, Reload and Export. `Roster.Get` reaches it only on the reply cache's miss path, so its
/// cost is paid once per (query, roster revision, configuration generation).
enum ReplyEncoding {
    // MARK: Rosters

    /// `Roster.Get`'s reply: `fresh`, `stale` (with the fetch time) and `warming` (no apps) are answers;
    /// `unavailable` and `failed` are the error behind them.
    static func get(_ view: RosterView) throws(VarlinkError) -> JSONValue {
        try servable(view)
        let reply = RosterGetReply(
            storefront: view.storefront.code, host: view.host, state: view.state.wire,
            fetchedAt: view.fetchedAt.map(RFC3339.seconds), apps: []
        ).encoded()
        return setting("apps", to: .array(view.apps.map(VarlinkAppFields.object)), in: reply)
    }

    /// One `Roster.Watch` reply's parameters, serialized: the state as `Get` answers it, with the revision it
    /// corresponds to.
    static func watch(_ view: RosterView) throws(VarlinkError) -> [UInt8] {
        try watch(view, revision: view.revision, apps: WatchApps(view.apps))
    }

    /// `Roster.Watch`'s reply parameters, serialized, with the stream's own `revision` and the apps it already
    /// encoded: ShowcaseAPI's `RosterWatchReply` with `apps` spliced in as they are, so an app is encoded once
    /// however many revisions and streams send it (the bytes are those of the typed reply carrying the apps as
    /// ``RosterApp`` values; AppProjectionTests holds them to it).
    static func watch(_ view: RosterView, revision: Int, apps: WatchApps) throws(VarlinkError) -> [UInt8] {
        try servable(view)
        let reply = RosterWatchReply(
            storefront: view.storefront.code, revision: max(revision, 0), state: view.state.wire, apps: [])
        var out: [UInt8] = []
        out.reserveCapacity(apps.bytes.count + 96)
        reply.encoded().serialize(into: &out, member: "apps", serializedAs: apps.bytes)
        return out
    }

    /// `Roster.GetApp`'s reply: the app `id` from a `fresh` or `stale` roster; `AppNotFound` when that roster does
    /// not list it, `Unavailable` while warming, the error behind `unavailable` and `failed`.
    static func getApp(_ view: RosterView, id: Int64) throws(VarlinkError) -> JSONValue {
        switch view.state {
        case .fresh, .stale:
            guard let resolved = view.app(id: Int(truncatingIfNeeded: id)) else {
                throw ShowcaseErrorReply.appNotFound(id: Int(truncatingIfNeeded: id), storefront: view.storefront.code)
                    .varlinkError
            }
            return RosterGetAppReply(app: app(resolved)).encoded()
        case .warming:
            throw unavailable(
                view.storefront, reason: "the \(view.storefront.code) roster is still warming; retry in a moment")
        case .unavailable, .failed:
            throw problem(view)
        }
    }

    /// `parameters` with the member `key` set to `value`: how `Get` places the projection's `App` objects in its
    /// reply as written, so a cache miss walks each app's fields once (reading them into ``RosterApp`` values would
    /// only encode them again). AppProjectionTests holds it to the typed reply.
    private static func setting(_ key: String, to value: JSONValue, in parameters: JSONValue) -> JSONValue {
        guard case .object(var members) = parameters else { return parameters }
        members[key] = value
        return .object(members)
    }

    /// Throws the error a roster that is not served (`unavailable`, `failed`) is answered with.
    private static func servable(_ view: RosterView) throws(VarlinkError) {
        switch view.state {
        case .fresh, .stale, .warming: return
        case .unavailable, .failed: throw problem(view)
        }
    }

    /// The error an `unavailable` or `failed` roster is answered with.
    private static func problem(_ view: RosterView) -> VarlinkError {
        guard let error = view.problem else {
            return unavailable(view.storefront, reason: "the \(view.storefront.code) roster cannot be served now")
        }
        return Self.error(error, storefront: view.storefront, host: view.host)
    }

    /// `Roster.Storefronts`' reply: every App Store storefront, and whether it is kept warm.
    static func storefronts(warm: Set<Storefront>) -> JSONValue {
        RosterStorefrontsReply(
            storefronts: Storefront.all.map { storefront in
                RosterStorefrontsReply.Entry(
                    code: storefront.code, alpha3: storefront.alpha3, name: storefront.name,
                    warm: warm.contains(storefront))
            }
        ).encoded()
    }

    /// `Roster.Health`'s reply: the overall state, `refresh.interval`, and each warm storefront with its age and,
    /// when nothing is served, the name of the error `Get` answers with (from the same mapping ``get(_:)`` uses).
    static func health(_ report: HealthReport) -> JSONValue {
        RosterHealthReply(
            state: report.state, refreshIntervalSeconds: Int(report.refreshInterval.components.seconds),
            storefronts: report.byStorefront.map { entry in
                RosterHealthReply.Storefront(
                    code: entry.storefront.code, state: entry.state.wire, ageSeconds: entry.ageSeconds,
                    error: entry.problem.map { error($0, storefront: entry.storefront, host: "").name })
            }, problems: report.problems.map(problem)
        ).encoded()
    }

    // MARK: Admin

    /// `Admin.Metrics`' reply: the exposition text.
    static func metrics(_ text: String) -> JSONValue { AdminMetricsReply(text: text).encoded() }

    /// `Admin.Status`' reply.
    static func status(_ report: StatusReport) -> JSONValue {
        AdminStatusReply(
            version: ShowcaseVersion.string, configPath: report.configPath, configGeneration: report.configGeneration,
            lastReloadError: report.lastReloadError,
            upstream: AdminStatusReply.Upstream(
                requests: report.upstream.requests, failures: report.upstream.failures,
                throttled: report.upstream.throttled),
            storefronts: report.storefronts.map { entry in
                AdminStatusReply.StorefrontStatus(
                    code: entry.storefront.code, state: entry.state.wire,
                    fetchedAt: entry.fetchedAt.map(RFC3339.seconds),
                    nextRefreshAt: entry.nextRefreshAt.map(RFC3339.seconds), apps: entry.apps,
                    lastError: entry.cacheWriteError ?? entry.lastError?.description, language: entry.language?.code,
                    droppedRows: entry.droppedRows, truncated: entry.truncated)
            },
            hosts: report.hosts.map {
                AdminStatusReply.HostStatus(
                    bundleId: $0.bundleID, appId: $0.appID, artistId: $0.artistID, warning: $0.warning)
            },
            export: report.export.map { export in
                AdminStatusReply.ExportStatus(
                    directory: export.directory, exportedAt: export.exportedAt.map(RFC3339.seconds),
                    errors: export.errors, lastError: export.lastError)
            }, problems: report.problems.map(problem)
        ).encoded()
    }

    /// A history set aside, as a `history` problem.
    static func problem(_ aside: HistorySetAside) -> ServiceProblem {
        ServiceProblem(
            kind: ServiceProblem.history, host: aside.key.host,
            storefront: aside.key.edition.storefront.code + (aside.key.edition.language.map { "/" + $0.code } ?? ""),
            detail: aside.message)
    }

    /// `Admin.Export`'s reply: the pass's counts and, one sentence each, what failed.
    static func exported(_ report: ExportReport) -> JSONValue {
        AdminExportReply(
            directory: report.directory, written: report.written, unchanged: report.unchanged,
            removed: report.removed, errors: report.errors.map(\.message)
        ).encoded()
    }

    /// `ExportNotConfigured`: `Admin.Export` without `export.directory`.
    static let exportNotConfigured = ShowcaseErrorReply.exportNotConfigured.varlinkError

    /// `Admin.Refresh`' reply.
    static func refresh(_ report: RefreshReport) -> JSONValue {
        AdminRefreshReply(
            refreshed: report.refreshed.map(\.code),
            failed: report.failed.map {
                AdminRefreshReply.Failure(storefront: $0.storefront.code, error: $0.failure.description)
            }
        ).encoded()
    }

    /// `Admin.Reload`'s reply.
    static func reloaded(generation: Int) -> JSONValue { AdminReloadReply(generation: generation).encoded() }

    /// `Admin.Reload`'s error: the first configuration error, with where it is.
    static func configInvalid(_ errors: ConfigErrors) -> VarlinkError {
        let first = errors.first
        return ShowcaseErrorReply.configInvalid(
            file: first.file, line: first.line, column: first.column, message: first.message
        ).varlinkError
    }

    // MARK: Values

    /// One `App` as the IDL declares it: the served fields of ``ResolvedApp/writeFields(to:)`` — the list the
    /// export's app object is written from too — as a Varlink object, read as the contract's typed value that
    /// `GetApp`'s `RosterGetAppReply` carries (one app per call; ``RosterApp/otherFields`` keeps the fields it has
    /// no property for, so the reply is the object as written). Optional fields are omitted when absent.
    static func app(_ resolved: ResolvedApp) -> RosterApp {
        do {
            return try RosterApp(decoding: VarlinkAppFields.object(resolved))
        } catch {
            // The projection writes each field with the IDL's type; the contract tests hold RosterApp to it.
            preconditionFailure("the App fields and RosterApp disagree: \(error.description)")
        }
    }

    /// The most bytes of changes one `Roster.Changes` reply carries: a quarter of the socket's per-connection
    /// reply limit (``VarlinkServer/Limits/maxPendingOutputBytes``, 16 MiB), so a reply never closes the
    /// connection, pipelined calls included. A history entry is at most 8 KiB, so every reply carries at least one.
    static let changesReplyBudget = VarlinkServer.Limits().maxPendingOutputBytes / 4

    /// `Roster.Changes`'s reply: the page's entries that fit in `budget` bytes, the oldest first (so a caller that
    /// asks again with `since` = the newest serial returned misses none), with `more` when any was left out.
    static func changes(_ page: ChangesPage, budget: Int = changesReplyBudget) -> JSONValue {
        var kept: [RosterChange] = []
        var size = 0
        var buffer: [UInt8] = []
        // Oldest first: the page's entries are newest first.
        for entry in page.entries.reversed() {
            let change = RosterChange(
                serial: entry.serial, at: RFC3339.seconds(entry.at), kind: entry.kind.rawValue, id: entry.id,
                name: entry.name, platform: entry.platform.rawValue, storeUrl: entry.storeUrl,
                iconUrl: entry.iconUrl, version: entry.version, versionDate: entry.versionDate,
                releaseNotes: entry.releaseNotes, formattedPrice: entry.formattedPrice,
                previousFormattedPrice: entry.previousFormattedPrice)
            buffer.removeAll(keepingCapacity: true)
            change.encoded().serialize(into: &buffer)
            guard kept.isEmpty || size + buffer.count + 1 <= budget else { break }
            size += buffer.count + 1
            kept.append(change)
        }
        return RosterChangesReply(
            storefront: page.storefront.code, host: page.host, latest: page.latest, changes: kept.reversed(),
            more: page.more || kept.count < page.entries.count, language: page.language,
            languages: page.languages.map { .init(language: $0.language, latest: $0.latest) }
        ).encoded()
    }

    /// The Varlink error a diagnostic or transport failure is answered with.
    static func error(_ error: LookupError, storefront: Storefront, host: String) -> VarlinkError {
        let code = storefront.code
        switch error {
        case .malformed(let detail):
            return ShowcaseErrorReply.malformedResponse(storefront: code, detail: detail).varlinkError
        case .missingEntityParameter:
            return ShowcaseErrorReply.missingEntityParameter(storefront: code).varlinkError
        case .hostAppNotFound:
            return ShowcaseErrorReply.hostAppNotFound(host: host, storefront: code).varlinkError
        case .connection, .timeout, .httpStatus, .throttled:
            return unavailable(storefront, reason: error.description)
        }
    }

    /// `Unavailable`: the transport failed (or the roster is still warming, for `GetApp`) and nothing is served.
    static func unavailable(_ storefront: Storefront, reason: String) -> VarlinkError {
        ShowcaseErrorReply.unavailable(storefront: storefront.code, reason: reason).varlinkError
    }

    /// `UnknownHost`, naming the bundle id as the client wrote it.
    static func unknownHost(_ text: String) -> VarlinkError {
        ShowcaseErrorReply.unknownHost(host: text).varlinkError
    }
}
