import Foundation

/// One HTTP request the replay server received, kept so tests can count and inspect what the daemon
/// sent upstream (which parameters, which headers, how often) without trusting the daemon's own counters.
public struct RecordedRequest: Sendable, Equatable, Codable {
    /// Sequence number in arrival order, starting at 1.
    public var sequence: Int
    /// HTTP method as sent (`GET`).
    public var method: String
    /// Path without the query (`/lookup`).
    public var path: String
    /// The raw request target, path and query as sent (`/lookup?bundleId=…&country=us`).
    public var target: String
    /// Decoded query parameters; a repeated name keeps its last value.
    public var query: [String: String]
    /// Header fields with lowercased names (`user-agent`), so tests can prove what was *not* sent.
    public var headers: [String: String]
    /// Arrival time, wall clock.
    public var receivedAt: Date
    /// The fixture file (or fault) the answer came from, for readable test failures.
    public var answeredWith: String

    /// Made by the replay server for each request it answers.
    public init(
        sequence: Int, method: String, path: String, target: String, query: [String: String],
        headers: [String: String], receivedAt: Date, answeredWith: String
    ) {
        self.sequence = sequence
        self.method = method
        self.path = path
        self.target = target
        self.query = query
        self.headers = headers
        self.receivedAt = receivedAt
        self.answeredWith = answeredWith
    }

    /// The kind of lookup this request was, by the fixture naming contract.
    public var kind: LookupKind { LookupKind(query: query) }
}
