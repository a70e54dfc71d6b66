import Foundation

/// The parsed start line and headers of one HTTP/1.1 request, plus its body when it had one.
struct HTTPRequestHead: Sendable {
    var method: String
    var target: String
    var path: String
    var query: [String: String]
    var headers: [String: String]
    var body: Data

    /// Parses `head` (everything before the blank line). Returns nil for anything that is not a request line.
    init?(head: Data, body: Data = Data()) {
        guard let text = String(data: head, encoding: .utf8) else { return nil }
        var lines = text.components(separatedBy: "\r\n")
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count >= 2 else { return nil }
        method = String(requestLine[0])
        target = String(requestLine[1])
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        self.headers = headers
        self.body = body
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = parts.first.map(String.init) ?? target
        query = parts.count > 1 ? Self.parseQuery(String(parts[1])) : [:]
    }

    /// Decodes `a=1&b=x%20y`; a repeated name keeps its last value.
    static func parseQuery(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(kv[0]).removingPercentEncoding ?? String(kv[0])
            let value = kv.count > 1 ? (String(kv[1]).removingPercentEncoding ?? String(kv[1])) : ""
            result[name] = value
        }
        return result
    }

    var contentLength: Int { headers["content-length"].flatMap { Int($0) } ?? 0 }
}
