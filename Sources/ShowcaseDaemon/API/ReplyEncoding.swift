import Foundation
import ShowcaseConfig
import ShowcaseCore
import Varlink

/// Every reply the daemon's methods send, as Varlink values and errors: the one file that knows the wire shape of
/// rosters, apps, Status, Refresh and Reload. `Roster.Get` reaches it only on the reply cache's miss path, so its
/// cost is paid once per (query, roster revision, configuration generation).
enum ReplyEncoding {
    // MARK: Rosters

    /// `Roster.Get`'s reply: `fresh`, `stale` (with the fetch time) and `warming` (no apps) are answers;
    /// `unavailable` and `failed` are the error behind them.
    static func get(_ view: RosterView) throws(VarlinkError) -> JSONValue {
        var parameters = try roster(view)
        parameters["host"] = .string(view.host)
        if let fetchedAt = view.fetchedAt { parameters["fetchedAt"] = .string(timestamp(fetchedAt)) }
        return .object(parameters)
    }

    /// One `Roster.Watch` reply: the state as `Get` answers it, with the revision it corresponds to.
    static func watch(_ view: RosterView) throws(VarlinkError) -> JSONValue {
        var parameters = try roster(view)
        parameters["revision"] = .int(Int64(max(view.revision, 0)))
        return .object(parameters)
    }

    /// `Roster.GetApp`'s reply: the app `id` from a `fresh` or `stale` roster; `AppNotFound` when that roster does
    /// not list it, `Unavailable` while warming, the error behind `unavailable` and `failed`.
    static func getApp(_ view: RosterView, id: Int64) throws(VarlinkError) -> JSONValue {
        switch view.state {
        case .fresh, .stale:
            guard let resolved = view.app(id: Int(truncatingIfNeeded: id)) else {
                throw VarlinkError(
                    name: ShowcaseInterfaces.Error.appNotFound,
                    parameters: ["id": .int(id), "storefront": .string(view.storefront.code)])
            }
            return ["app": app(resolved)]
        case .warming:
            throw unavailable(
                view.storefront, reason: "the \(view.storefront.code) roster is still warming; retry in a moment")
        case .unavailable, .failed:
            throw problem(view)
        }
    }

    /// The members `Get` and `Watch` share: storefront, state and apps; or the error for a roster not served.
    private static func roster(_ view: RosterView) throws(VarlinkError) -> [String: JSONValue] {
        switch view.state {
        case .fresh, .stale, .warming:
            return [
                "storefront": .string(view.storefront.code), "state": .string(view.state.rawValue),
                "apps": .array(view.apps.map(app)),
            ]
        case .unavailable, .failed:
            throw problem(view)
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
        let list: [JSONValue] = Storefront.all.map { storefront in
            [
                "code": .string(storefront.code), "alpha3": .string(storefront.alpha3),
                "name": .string(storefront.name), "warm": .bool(warm.contains(storefront)),
            ]
        }
        return ["storefronts": .array(list)]
    }

    // MARK: Admin

    /// `Admin.Status`' reply.
    static func status(_ report: StatusReport) -> JSONValue {
        let storefronts: [JSONValue] = report.storefronts.map { entry in
            var members: [String: JSONValue] = [
                "code": .string(entry.storefront.code), "state": .string(entry.state.rawValue),
                "apps": .int(Int64(entry.apps)),
            ]
            if let fetchedAt = entry.fetchedAt { members["fetchedAt"] = .string(timestamp(fetchedAt)) }
            if let next = entry.nextRefreshAt { members["nextRefreshAt"] = .string(timestamp(next)) }
            if let error = entry.lastError { members["lastError"] = .string(error.description) }
            return .object(members)
        }
        var reply: [String: JSONValue] = [
            "version": .string(ShowcaseVersion.string), "configPath": .string(report.configPath),
            "configGeneration": .int(Int64(report.configGeneration)),
            "upstream": [
                "requests": .int(Int64(report.upstream.requests)), "failures": .int(Int64(report.upstream.failures)),
                "throttled": .int(Int64(report.upstream.throttled)),
            ],
            "storefronts": .array(storefronts),
        ]
        if let error = report.lastReloadError { reply["lastReloadError"] = .string(error) }
        return .object(reply)
    }

    /// `Admin.Refresh`' reply.
    static func refresh(_ report: RefreshReport) -> JSONValue {
        [
            "refreshed": .array(report.refreshed.map { .string($0.code) }),
            "failed": .array(
                report.failed.map {
                    ["storefront": .string($0.storefront.code), "error": .string($0.failure.description)]
                }
            ),
        ]
    }

    /// `Admin.Reload`'s reply.
    static func reloaded(generation: Int) -> JSONValue { ["generation": .int(Int64(generation))] }

    /// `Admin.Reload`'s error: the first configuration error, with where it is.
    static func configInvalid(_ errors: ConfigErrors) -> VarlinkError {
        let first = errors.first
        return VarlinkError(
            name: ShowcaseInterfaces.Error.configInvalid,
            parameters: [
                "file": .string(first.file), "line": .int(Int64(first.line)), "column": .int(Int64(first.column)),
                "message": .string(first.message),
            ])
    }

    // MARK: Values

    /// One `App` as the IDL declares it; optional fields are omitted when absent.
    static func app(_ resolved: ResolvedApp) -> JSONValue {
        let app = resolved.app
        var members: [String: JSONValue] = [
            "id": .int(Int64(app.id)),
            "artistId": .int(Int64(app.artistId)),
            "name": .string(app.name),
            "bundleId": .string(app.bundleId),
            "genre": .string(app.genre),
            "platform": .string(app.platform.rawValue),
            "minimumOsVersion": .string(app.minimumOsVersion),
            "iconUrl": .string(app.iconUrl),
            "storeUrl": .string(resolved.storeUrl),
        ]
        if let price = app.formattedPrice { members["formattedPrice"] = .string(price) }
        if let tagline = resolved.tagline { members["tagline"] = .string(tagline) }
        return .object(members)
    }

    /// RFC 3339 UTC with seconds (`2026-11-29T14:18:43Z`).
    static func timestamp(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// The Varlink error a diagnostic or transport failure is answered with.
    static func error(_ error: LookupError, storefront: Storefront, host: String) -> VarlinkError {
        let code = JSONValue.string(storefront.code)
        switch error {
        case .malformed(let detail):
            return VarlinkError(
                name: ShowcaseInterfaces.Error.malformedResponse,
                parameters: ["storefront": code, "detail": .string(detail)])
        case .missingEntityParameter:
            return VarlinkError(name: ShowcaseInterfaces.Error.missingEntityParameter, parameters: ["storefront": code])
        case .hostAppNotFound:
            return VarlinkError(
                name: ShowcaseInterfaces.Error.hostAppNotFound, parameters: ["host": .string(host), "storefront": code])
        case .connection, .timeout, .httpStatus, .throttled:
            return unavailable(storefront, reason: error.description)
        }
    }

    static func unavailable(_ storefront: Storefront, reason: String) -> VarlinkError {
        VarlinkError(
            name: ShowcaseInterfaces.Error.unavailable,
            parameters: ["storefront": .string(storefront.code), "reason": .string(reason)])
    }

    static func unknownStorefront(_ text: String) -> VarlinkError {
        VarlinkError(name: ShowcaseInterfaces.Error.unknownStorefront, parameters: ["storefront": .string(text)])
    }

    static func unknownHost(_ text: String) -> VarlinkError {
        VarlinkError(name: ShowcaseInterfaces.Error.unknownHost, parameters: ["host": .string(text)])
    }
}
