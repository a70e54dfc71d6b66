import Foundation
import ShowcaseAPI
import ShowcaseCore
import Varlink

/// Turns roster answers into Varlink values and errors. Only the reply cache's miss path calls it, so
/// its cost is paid once per (query, roster revision, configuration generation).
enum ReplyEncoding {
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
