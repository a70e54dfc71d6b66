import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reads lookup-replay's request log (`GET /_replay/requests`): the upstream count is taken from what the
/// loopback "Apple" received, never from the daemon's own counters.
enum ReplayLog {
    /// The query parameters of every recorded lookup request.
    static func fetch(baseURL: String) throws(BenchError) -> [[String: String]] {
        let trimmed = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        guard let url = URL(string: trimmed + "/_replay/requests") else {
            throw BenchError("--replay needs a URL like http://127.0.0.1:PORT, not '\(baseURL)'")
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: url) { data, _, _ in
            box.data = data
            done.signal()
        }.resume()
        done.wait()
        guard let data = box.data, let entries = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { throw BenchError("lookup-replay at \(baseURL) did not return its request log") }
        return entries.map { ($0["query"] as? [String: String]) ?? [:] }
    }

    private final class Box: @unchecked Sendable {
        var data: Data?
    }
}
