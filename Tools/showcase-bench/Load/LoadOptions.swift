/// What one load run does: how many connections, how deep each pipelines, and for how long.
struct LoadOptions: Sendable {
    /// The Varlink socket under load.
    var socketPath: String
    /// One call, JSON, NUL-terminated: sent again and again, byte for byte.
    var call: [UInt8]
    /// With `--rotation-file`, the varied calls (each NUL-terminated): each connection sends them in turn from
    /// its own offset (``CallRotation``), so no call repeats the previous one on its connection. Empty: `call`.
    var rotation: [[UInt8]] = []
    /// Concurrent client connections (`--connections`, default 16: the load BENCHMARKS.md measures).
    var connections = 16
    /// Calls in flight per connection (`--depth`, default 1: a request/response client).
    var depth = 1
    /// Client threads the connections are spread over (`--threads`, default 1), each polling its share.
    /// On 2 cores one client thread leaves the other core to the server, so the tail latency measured is
    /// the server's, not the client's threads preempting it.
    var threads = 1
    /// Seconds of traffic before measuring starts (`--warmup`, default 1), so caches and the scheduler settle.
    var warmupSeconds = 1.0
    /// Seconds measured (`--duration`, default 5).
    var durationSeconds = 5.0
    /// With `--calls N`, stop after N calls in total instead of after a duration; every reply is measured.
    var totalCalls: Int?
    /// How long to wait for replies still in flight once sending has stopped before counting them as lost.
    var drainSeconds = 2.0
    /// With `--server-pid`, the server's CPU time over the measured window is reported too.
    var serverPid: Int32?
    /// Upper bound on a `--calls` run, so a stalled server cannot hang the bench.
    var timeoutSeconds = 60.0
}
