import Foundation

/// The `/_replay/…` control endpoints: the Swift API over HTTP, so an out-of-process `lookup-replay`
/// (the demo, CLI tests, a shell with curl) can be driven the same way in-process tests drive the server.
///
/// Every endpoint accepts any method and answers JSON; errors answer 400 with `{"error": "…"}`.
/// - `GET  /_replay/health` → `{"ok":true,"port":N,"fixtures":"DIR"}`
/// - `GET  /_replay/requests[?since=SEQ]` → array of `RecordedRequest` (`receivedAt` in Unix seconds)
/// - `POST /_replay/requests/clear`
/// - `POST /_replay/fault?status=403[&retryAfter=S]` · `?delayMs=N` · `?action=close|reset|truncate` ·
///   `?body=FILE` · `?trickleMs=N` — each with optional `&count=N` (default: until cleared) and `&match=SUBSTRING`
/// - `POST /_replay/faults/clear`
/// - `POST /_replay/fixtures?dir=PATH`
/// - `POST /_replay/override?name=FIXTURE[&file=PATH]` (without `file`, the request body is the content)
/// - `POST /_replay/override?dir=PATH` — a revision of the fixtures: every file directly in PATH answers in place of
///   the fixture of the same name (``setOverrides(from:)``), the others stay as they are
/// - `POST /_replay/override/clear[?name=FIXTURE]`
/// - `POST /_replay/artwork?here=1|0` — rewrite the fixtures' artwork URLs to this server (``serveArtworkHere(_:)``)
/// - `POST /_replay/reset` — faults, overrides and the request log
extension LookupReplayServer {
    func handleControl(_ request: HTTPRequestHead) -> Data {
        do {
            return try route(request)
        } catch {
            return Self.json(status: 400, ["error": error.description])
        }
    }

    private func route(_ request: HTTPRequestHead) throws(LookupReplayError) -> Data {
        let query = request.query
        switch request.path {
        case "/_replay/health":
            return Self.json(["ok": true, "port": port, "fixtures": fixtures.path])
        case "/_replay/requests":
            let since = query["since"].flatMap(Int.init) ?? 0
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .secondsSince1970
            let list = requests.filter { $0.sequence > since }
            let body = (try? encoder.encode(list)) ?? Data("[]".utf8)
            return Self.response(status: 200, body: body, contentType: "application/json")
        case "/_replay/requests/clear":
            clearRequests()
        case "/_replay/fault":
            let count = try query["count"].map { (text: String) throws(LookupReplayError) -> Int in
                guard let count = Int(text), count > 0 else {
                    throw LookupReplayError("count must be a positive integer, got '\(text)'")
                }
                return count
            }
            inject(try Self.fault(from: query), matching: query["match"], count: count)
        case "/_replay/faults/clear":
            clearFaults()
        case "/_replay/fixtures":
            guard let dir = query["dir"] else { throw LookupReplayError("fixtures needs ?dir=PATH") }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw LookupReplayError("'\(dir)' is not a directory")
            }
            setFixtures(URL(fileURLWithPath: dir, isDirectory: true))
        case "/_replay/override":
            if let dir = query["dir"] {
                try setOverrides(from: URL(fileURLWithPath: dir, isDirectory: true))
                break
            }
            guard let name = query["name"] else { throw LookupReplayError("override needs ?name=FIXTURE or ?dir=PATH") }
            if let file = query["file"] {
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw LookupReplayError("cannot read '\(file)'")
                }
                setOverride(name, contents: data)
            } else {
                setOverride(name, contents: request.body)
            }
        case "/_replay/override/clear":
            clearOverride(query["name"])
        case "/_replay/artwork":
            serveArtworkHere(query["here"] != "0")
        case "/_replay/reset":
            reset()
        default:
            throw LookupReplayError("unknown control endpoint '\(request.path)'")
        }
        return Self.json(["ok": true])
    }

    static func fault(from query: [String: String]) throws(LookupReplayError) -> ReplayFault {
        if let status = query["status"] {
            guard let code = Int(status), (100...599).contains(code) else {
                throw LookupReplayError("status must be an HTTP status code, got '\(status)'")
            }
            return .status(code, retryAfter: query["retryAfter"])
        }
        if let delay = query["delayMs"] {
            guard let ms = Int(delay), ms >= 0 else {
                throw LookupReplayError("delayMs must be milliseconds, got '\(delay)'")
            }
            return .delay(.milliseconds(ms))
        }
        if let body = query["body"] { return .body(body) }
        if let trickle = query["trickleMs"] {
            guard let ms = Int(trickle), ms > 0 else {
                throw LookupReplayError("trickleMs must be positive milliseconds, got '\(trickle)'")
            }
            return .trickle(.milliseconds(ms))
        }
        if let location = query["redirect"] { return .redirect(location) }
        if let file = query["gzipBody"] { return .gzipBody(file) }
        switch query["action"] {
        case "close": return .close
        case "reset": return .reset
        case "truncate": return .truncate
        case let other?: throw LookupReplayError("action must be close, reset or truncate, got '\(other)'")
        case nil:
            throw LookupReplayError("fault needs one of status=, delayMs=, body=, redirect=, gzipBody= or action=")
        }
    }

    static func json(status: Int = 200, _ object: [String: Any]) -> Data {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return response(status: status, body: body, contentType: "application/json")
    }
}
