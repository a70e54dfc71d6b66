/// What a load run measured: throughput and latency of the replies inside the measured window, and every
/// failure (error replies, connections the server dropped, calls never answered) over the whole run.
struct LoadResult {
    /// Replies received inside the measured window.
    var replies = 0
    /// Error replies (a top-level `error` member) inside the window.
    var errors = 0
    /// Replies over the whole run, warm-up and drain included.
    var totalReplies = 0
    /// Error replies over the whole run: "no failed call" means this and the two below are zero.
    var totalErrors = 0
    /// Connections that failed (connect refused, reset, closed by the server) before the run ended.
    var failedConnections = 0
    /// Calls sent but never answered by the end of the drain.
    var unanswered = 0
    /// Sum of reply sizes inside the window (NUL excluded), for the mean reply size.
    var replyBytes = 0
    /// Length of the measured window, seconds.
    var seconds = 0.0
    /// Latency of each reply inside the window, nanoseconds from writing the call to reading the NUL.
    var latencies: [UInt64] = []
    /// CPU seconds the load generator (all its threads) used over the measured window.
    var clientCPUSeconds: Double?
    /// CPU seconds the server used over the measured window (with `--server-pid`).
    var serverCPUSeconds: Double?
    /// Calls in flight per connection the run was configured for (connections × depth), for the check below.
    var configuredInFlight = 0

    var callsPerSecond: Double { seconds > 0 ? Double(replies) / seconds : 0 }
    var meanReplyBytes: Int { replies > 0 ? replyBytes / replies : 0 }
    var failedCalls: Int { totalErrors + unanswered }

    mutating func merge(_ other: LoadResult) {
        replies += other.replies
        errors += other.errors
        totalReplies += other.totalReplies
        totalErrors += other.totalErrors
        failedConnections += other.failedConnections
        unanswered += other.unanswered
        replyBytes += other.replyBytes
        latencies.append(contentsOf: other.latencies)
    }

    /// One JSON object, the form bench.sh collects; `extra` fields are appended as given.
    func json(label: String, extra: [(String, String)] = []) -> String {
        let summary = LatencySummary(samples: latencies)
        var fields: [(String, String)] = [
            ("label", JSONText.string(label)),
            ("callsPerSecond", JSONText.number(callsPerSecond, decimals: 1)),
            ("replies", String(replies)),
            ("errors", String(errors)),
            ("totalReplies", String(totalReplies)),
            ("totalErrors", String(totalErrors)),
            ("failedConnections", String(failedConnections)),
            ("unanswered", String(unanswered)),
            ("meanReplyBytes", String(meanReplyBytes)),
            ("seconds", JSONText.number(seconds, decimals: 3)),
            ("p50Ms", JSONText.milliseconds(summary.p50)),
            ("p90Ms", JSONText.milliseconds(summary.p90)),
            ("p99Ms", JSONText.milliseconds(summary.p99)),
            ("maxMs", JSONText.milliseconds(summary.max)),
        ]
        // Little's law: throughput × mean latency = calls in flight. Close to 1 when the client spends its
        // time waiting on the server; well below 1 when the client itself is the bottleneck.
        let inFlight = callsPerSecond * Double(summary.mean) / 1e9
        fields.append(
            (
                "littleCheck",
                configuredInFlight > 0 ? JSONText.number(inFlight / Double(configuredInFlight), decimals: 3) : "null"
            ))
        fields.append(("clientCpuSeconds", clientCPUSeconds.map { JSONText.number($0, decimals: 3) } ?? "null"))
        fields.append(("serverCpuSeconds", serverCPUSeconds.map { JSONText.number($0, decimals: 3) } ?? "null"))
        fields.append(
            (
                "serverCpuMicrosPerCall",
                serverCPUSeconds.map { replies > 0 ? JSONText.number($0 / Double(replies) * 1e6, decimals: 2) : "null" }
                    ?? "null"
            ))
        fields.append(contentsOf: extra)
        return JSONText.object(fields)
    }
}
