import Foundation

/// Waits, by polling `io.showcase.Admin.Status`, until every storefront the daemon keeps warm has been
/// fetched (state `fresh`), and says how long that took: the end of "a full warm".
enum StatusWaiter {
    struct Outcome {
        var seconds: Double
        var storefronts: Int
        var fresh: Int
        var timedOut: Bool
    }

    static func waitUntilFresh(socketPath: String, timeoutSeconds: Double) throws(BenchError) -> Outcome {
        let start = MonotonicClock.now()
        let deadline = start + MonotonicClock.nanoseconds(seconds: timeoutSeconds)
        var last = (total: 0, fresh: 0)
        while true {
            if let reply = try? VarlinkProbe.call(socketPath: socketPath, #"{"method":"io.showcase.Admin.Status"}"#),
                let object = try? JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any],
                let parameters = object["parameters"] as? [String: Any],
                let storefronts = parameters["storefronts"] as? [[String: Any]]
            {
                let fresh = storefronts.filter { ($0["state"] as? String) == "fresh" }.count
                last = (storefronts.count, fresh)
                if !storefronts.isEmpty, fresh == storefronts.count { break }
            }
            if MonotonicClock.now() >= deadline {
                return Outcome(
                    seconds: timeoutSeconds, storefronts: last.total, fresh: last.fresh, timedOut: true)
            }
            usleep(50_000)
        }
        return Outcome(
            seconds: Double(MonotonicClock.now() - start) / 1e9, storefronts: last.total, fresh: last.fresh,
            timedOut: false)
    }
}
