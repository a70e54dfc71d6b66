import Foundation
@preconcurrency import Glibc
import Locking

/// A loopback HTTP/1.1 server that answers like Apple's lookup endpoint from files in a fixtures
/// directory, records every request, and misbehaves on demand.
///
/// It exists so the daemon's tests and the offline demo never contact the internet, and so they can
/// prove upstream citizenship (request counts, rates, parameters, headers) from the outside.
///
/// File-naming contract (country lowercased; a missing country counts as `us`):
/// - `lookup?bundleId=B&country=cc` → `identity-B-cc.json`
/// - `lookup?id=A&entity=software&…&country=cc` → `roster-A-cc.json`
/// - the same with `lang=ll_cc` (a multilingual storefront's language, `lang=fr_ca`) → `roster-A-cc-ll.json`
///   (`roster-1641000001-ca-fr.json`), or `roster-A-cc.json` when there is none: the storefront then answers in
///   its default language, as Apple's endpoint does for a language it does not offer
/// - the fixtures' storefronts: `us`, `de`, `jp`; `ca` in English and French (`ca-fr`); `sa` in Arabic and `il` in
///   Hebrew, the right-to-left rosters (Fixtures/README.md)
/// - `lookup?id=A&country=cc` (no `entity`) → `artist-A-cc.json`
/// - no matching file → `empty.json` (or a built-in `{"resultCount":0,"results":[]}`)
/// - any other path whose last segment is `<w>x<h>bb.<ext>` (an Apple artwork URL's shape) → an invented PNG icon
///   of that size (``ReplayIcon``); with ``serveArtworkHere(_:)`` the fixtures' artwork URLs
///   (`https://is1-ssl.mzstatic.com/…`) are rewritten to this server, so the demo and the tests mirror icons offline
///
/// Every connection is answered once and closed (`Connection: close`). Control endpoints under
/// `/_replay/` (see `LookupReplayServer+Control.swift`) expose the same abilities as the Swift API to
/// an out-of-process `lookup-replay`.
public final class LookupReplayServer: Sendable {
    struct State: Sendable {
        var fixtures: URL
        var overrides: [String: Data] = [:]
        var faults: [ReplayFaultRule] = []
        var requests: [RecordedRequest] = []
        var sequence = 0
        var stopped = false
        var artworkHere = false
    }

    let state: Lock<State>
    private let listenFD: Int32
    /// The TCP port on 127.0.0.1 the server listens on.
    public let port: Int

    /// The lookup endpoint to put in `lookup.endpoint` (`http://127.0.0.1:PORT/lookup`).
    public var endpoint: String { "http://127.0.0.1:\(port)/lookup" }

    /// Starts listening on 127.0.0.1:`port` (0 picks a free port) and serving `fixtures`; with `artworkHere`, the
    /// fixtures' artwork URLs name this server (``serveArtworkHere(_:)``).
    public init(fixtures: URL, port: Int = 0, artworkHere: Bool = false) throws(LookupReplayError) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LookupReplayError("socket() failed: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let message = String(cString: strerror(errno))
            close(fd)
            throw LookupReplayError("cannot listen on 127.0.0.1:\(port): \(message)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.listenFD = fd
        self.port = Int(UInt16(bigEndian: actual.sin_port))
        var initial = State(fixtures: fixtures)
        initial.artworkHere = artworkHere
        self.state = Lock(initial)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "lookup-replay.accept"
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting; connections in progress finish on their own threads.
    ///
    /// Only `shutdown` here: it wakes the accept loop, which closes the listening socket itself. Were it closed
    /// here, the loop could call `accept` once more on its number after another server (another test's replay,
    /// in the same process) had been given it, take that server's connection and close it unanswered: the
    /// "Empty reply from server" a daemon under test then saw for no reason of its own.
    public func stop() {
        let wasStopped = state.withLock { state in
            defer { state.stopped = true }
            return state.stopped
        }
        guard !wasStopped else { return }
        shutdown(listenFD, Int32(SHUT_RDWR))
    }

    // MARK: Test-facing API

    /// Every lookup request received so far (control requests excluded), in arrival order.
    public var requests: [RecordedRequest] { state.withLock { $0.requests } }

    /// Forgets the recorded requests (sequence numbers keep increasing).
    public func clearRequests() { state.withLock { $0.requests.removeAll() } }

    /// Arms `fault` for the next `count` matching requests, or until `clearFaults()` when `count` is nil.
    /// `matching` is a substring of the request target (`country=de`, `entity=software`).
    public func inject(_ fault: ReplayFault, matching: String? = nil, count: Int? = nil) {
        state.withLock { $0.faults.append(ReplayFaultRule(fault, matching: matching, count: count)) }
    }

    /// Removes every armed fault.
    public func clearFaults() { state.withLock { $0.faults.removeAll() } }

    /// Serves a different fixtures directory from the next request on (overrides stay).
    public func setFixtures(_ directory: URL) { state.withLock { $0.fixtures = directory } }

    /// The directory currently served.
    public var fixtures: URL { state.withLock { $0.fixtures } }

    /// Answers requests for fixture `name` (`roster-1-us.json`) with `contents` until cleared —
    /// for example to make the next refresh return changed content.
    public func setOverride(_ name: String, contents: Data) { state.withLock { $0.overrides[name] = contents } }

    /// Switches to a revision of the fixtures: every regular file directly in `directory` answers from now on in
    /// place of the fixture of the same name (as ``setOverride(_:contents:)`` each), the others stay as they are.
    /// The offline demo uses it to make upstream change between two refreshes (`Fixtures/lookup/revision-2/`).
    /// Throws, setting nothing, when the directory cannot be read or holds no file.
    public func setOverrides(from directory: URL) throws(LookupReplayError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        } catch {
            throw LookupReplayError("cannot read the directory '\(directory.path)'")
        }
        var contents: [String: Data] = [:]
        for name in names where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw LookupReplayError("cannot read '\(url.path)'")
            }
            contents[name] = data
        }
        guard !contents.isEmpty else { throw LookupReplayError("'\(directory.path)' holds no fixture file") }
        state.withLock { $0.overrides.merge(contents) { $1 } }
    }

    /// Removes one override, or all when `name` is nil.
    public func clearOverride(_ name: String? = nil) {
        state.withLock { state in
            if let name { state.overrides[name] = nil } else { state.overrides.removeAll() }
        }
    }

    /// The artwork host of the fixtures, which ``serveArtworkHere(_:)`` replaces.
    public static let fixtureArtworkPrefix = "https://is1-ssl.mzstatic.com/"

    /// The prefix artwork URLs have with ``serveArtworkHere(_:)``: this server (`http://127.0.0.1:PORT/`), what
    /// `lookup.artwork_hosts` must allow.
    public var artworkPrefix: String { "http://127.0.0.1:\(port)/" }

    /// With `on`, every lookup answer has its artwork URLs (``fixtureArtworkPrefix``) rewritten to
    /// ``artworkPrefix``, where this server draws the icons: the offline demo then shows real icons.
    public func serveArtworkHere(_ on: Bool) { state.withLock { $0.artworkHere = on } }

    /// Clears faults, overrides and the request log.
    public func reset() {
        state.withLock { state in
            state.faults.removeAll()
            state.overrides.removeAll()
            state.requests.removeAll()
        }
    }

    // MARK: Serving

    private func acceptLoop() {
        while true {
            let client = accept(listenFD, nil, nil)
            if client < 0 {
                if errno == EINTR, !state.withLock({ $0.stopped }) { continue }
                close(listenFD)
                return
            }
            if state.withLock({ $0.stopped }) {
                close(client)
                close(listenFD)
                return
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let request = Self.readRequest(receiving: { recv(fd, $0, $1, 0) }) else {
            close(fd)
            return
        }
        if request.path.hasPrefix("/_replay/") {
            let response = handleControl(request)
            send(fd, response)
            close(fd)
            return
        }
        answerLookup(request, fd: fd)
    }

    /// Reads one request (head, then a body of its `Content-Length`) with `receive`, which works as recv(2) does:
    /// bytes read, 0 at the end, -1 with `errno` set. An interrupted read is retried: a socket with a receive timeout
    /// (`serve` sets one) is never restarted after a signal handler ran on its thread, whatever `SA_RESTART` says,
    /// and a test process's handlers then made the replay close connections without an answer ("Empty reply from
    /// server" in the daemon's refresh). Nil for a malformed head, a head over 1 MiB, or a peer gone before it.
    static func readRequest(receiving receive: (UnsafeMutableRawPointer, Int) -> Int) -> HTTPRequestHead? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 16384)
        func next() -> Int {
            while true {
                let count = chunk.withUnsafeMutableBytes { receive($0.baseAddress!, $0.count) }
                if count < 0, errno == EINTR { continue }
                return count
            }
        }
        let separator = Data("\r\n\r\n".utf8)
        while buffer.count < 1 << 20 {
            if let range = buffer.range(of: separator) {
                let head = buffer[..<range.lowerBound]
                var body = Data(buffer[range.upperBound...])
                guard var request = HTTPRequestHead(head: Data(head)) else { return nil }
                while body.count < request.contentLength {
                    let n = next()
                    if n <= 0 { break }
                    body.append(chunk, count: n)
                }
                request.body = body
                return request
            }
            let n = next()
            if n <= 0 { return nil }
            buffer.append(chunk, count: n)
        }
        return nil
    }

    /// Picks the fault (if any) for this request, decrementing its count, and records the request.
    private func admit(_ request: HTTPRequestHead) -> (ReplayFault?, fixtures: URL, overrides: [String: Data]) {
        state.withLock { state in
            var chosen: ReplayFault?
            if let index = state.faults.firstIndex(where: { rule in
                rule.matching.map { request.target.contains($0) } ?? true
            }) {
                chosen = state.faults[index].fault
                if let remaining = state.faults[index].remaining {
                    if remaining <= 1 {
                        state.faults.remove(at: index)
                    } else {
                        state.faults[index].remaining = remaining - 1
                    }
                }
            }
            state.sequence += 1
            let name = Self.fixtureName(for: request.query, available: Self.available(state.fixtures, state.overrides))
            state.requests.append(
                RecordedRequest(
                    sequence: state.sequence, method: request.method, path: request.path, target: request.target,
                    query: request.query, headers: request.headers, receivedAt: Date(),
                    answeredWith: chosen?.label ?? name))
            return (chosen, state.fixtures, state.overrides)
        }
    }

    /// The fixture file name a lookup query maps to, by the naming contract. `available` says whether a name has a
    /// file (or an override): a roster asked for in a language without its own file falls back to the plain one.
    public static func fixtureName(for query: [String: String], available: (String) -> Bool = { _ in true })
        -> String
    {
        let country = (query["country"] ?? "us").lowercased()
        switch LookupKind(query: query) {
        case .identity: return "identity-\(query["bundleId"]!)-\(country).json"
        case .roster:
            let plain = "roster-\(query["id"]!)-\(country).json"
            // `lang=fr_ca`: the language is the part before `_`, 2–3 letters; anything else is not a language.
            guard let lang = query["lang"]?.split(separator: "_").first, (2...3).contains(lang.count),
                lang.allSatisfy({ $0.isASCII && $0.isLetter })
            else { return plain }
            let named = "roster-\(query["id"]!)-\(country)-\(lang.lowercased()).json"
            return available(named) ? named : plain
        case .artist: return "artist-\(query["id"]!)-\(country).json"
        case .other: return "empty.json"
        }
    }

    /// Whether a fixture name has an override or a file in `fixtures`.
    private static func available(_ fixtures: URL, _ overrides: [String: Data]) -> (String) -> Bool {
        { name in
            overrides[name] != nil
                || (!name.contains("/")
                    && FileManager.default.fileExists(atPath: fixtures.appendingPathComponent(name).path))
        }
    }

    private func answerLookup(_ request: HTTPRequestHead, fd: Int32) {
        let (fault, fixtures, overrides) = admit(request)
        let artworkHere = state.withLock { $0.artworkHere }
        let icon = request.path == "/lookup" ? nil : ReplayIcon.requestedSize(path: request.path)
        let contentType = icon == nil ? "text/javascript; charset=utf-8" : "image/png"
        let body = { () -> Data in
            if let icon {
                return ReplayIcon.png(path: request.path, width: icon.width, height: icon.height) ?? Data()
            }
            let name = Self.fixtureName(for: request.query, available: Self.available(fixtures, overrides))
            let data =
                (!name.contains("/")
                    ? overrides[name] ?? (try? Data(contentsOf: fixtures.appendingPathComponent(name))) : nil)
                ?? overrides["empty.json"] ?? (try? Data(contentsOf: fixtures.appendingPathComponent("empty.json")))
                ?? Data(#"{"resultCount":0,"results":[]}"#.utf8)
            return artworkHere ? self.rewritingArtwork(data) : data
        }
        if request.path != "/lookup", icon == nil || (fault == nil && body().isEmpty) {
            send(fd, Self.response(status: 404, body: Data()))
            close(fd)
            return
        }
        switch fault {
        case nil:
            send(fd, Self.response(status: 200, body: body(), contentType: contentType))
        case .trickle(let interval)?:
            let full = body()
            let (seconds, attoseconds) = interval.components
            let whole = Self.response(status: 200, body: full, contentType: contentType)
            send(fd, whole.prefix(whole.count - full.count))  // the head, announcing the whole body
            for byte in full {
                Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
                if !send(fd, Data([byte])) { break }
            }
        case .status(let code, let retryAfter)?:
            var headers: [(String, String)] = []
            if let retryAfter { headers.append(("Retry-After", retryAfter)) }
            let payload =
                code == 403
                ? ((try? Data(contentsOf: fixtures.appendingPathComponent("throttled-403.txt"))) ?? Data()) : Data()
            send(fd, Self.response(status: code, headers: headers, body: payload))
        case .delay(let duration)?:
            let (seconds, attoseconds) = duration.components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
            send(fd, Self.response(status: 200, body: body(), contentType: contentType))
        case .close?:
            break
        case .reset?:
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        case .body(let file)?:
            let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : fixtures.appendingPathComponent(file)
            send(fd, Self.response(status: 200, body: (try? Data(contentsOf: url)) ?? Data()))
        case .truncate?:
            let full = body()
            send(fd, Self.response(status: 200, body: full.prefix(full.count / 2)))
        case .redirect(let location)?:
            send(fd, Self.response(status: 301, headers: [("Location", location)], body: Data()))
        case .gzipBody(let file)?:
            let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : fixtures.appendingPathComponent(file)
            let payload = (try? Data(contentsOf: url)) ?? Data()
            send(fd, Self.response(status: 200, headers: [("Content-Encoding", "gzip")], body: payload))
        }
        close(fd)
    }

    static func response(
        status: Int, headers: [(String, String)] = [], body: Data,
        contentType: String = "text/javascript; charset=utf-8"
    ) -> Data {
        var head = "HTTP/1.1 \(status) \(reason(status))\r\n"
        head += "Content-Type: \(contentType)\r\n"
        head += "Content-Length: \(body.count)\r\n"
        head += "Connection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        var data = Data(head.utf8)
        data.append(body)
        return data
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    /// Sends all of `data`; false when the peer is gone.
    @discardableResult
    private func send(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return false }
                offset += n
            }
            return true
        }
    }

    /// `data` with the fixtures' artwork host replaced by this server (as written, and with JSON-escaped slashes).
    private func rewritingArtwork(_ data: Data) -> Data {
        let text = String(decoding: data, as: UTF8.self)
        let escaped = Self.fixtureArtworkPrefix.replacingOccurrences(of: "/", with: "\\/")
        return Data(
            text.replacingOccurrences(of: Self.fixtureArtworkPrefix, with: artworkPrefix)
                .replacingOccurrences(of: escaped, with: artworkPrefix.replacingOccurrences(of: "/", with: "\\/"))
                .utf8)
    }
}
