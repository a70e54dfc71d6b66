import Foundation
import ShowcaseCore
import Synchronization

/// The only way the daemon reaches the lookup endpoint: every request waits for the shared rate limiter,
/// is counted for Status, and a 403/429 pauses all upstream traffic (for `Retry-After` when given).
public final class Upstream: Sendable {
    /// Counters reported by `Admin.Status`.
    public struct Counters: Sendable, Equatable {
        /// Requests sent upstream (after the rate limiter let them through).
        public var requests = 0
        /// Requests that failed, plus 2xx bodies that were not a usable lookup answer.
        public var failures = 0
        /// Failures that were a 403 or 429, each of which paused all upstream traffic.
        public var throttled = 0
    }

    private let transport: Mutex<any LookupTransport>
    /// How long a 403/429 without `Retry-After` pauses upstream traffic (`refresh.retry`), and the longest any
    /// throttled answer may pause it (`refresh.interval`): an absurd `Retry-After` must not silence every
    /// refresh and `Admin.Refresh` for days.
    private let backoff: Mutex<(fallback: Duration, ceiling: Duration)>
    let limiter: RateLimiter
    private let counters = Mutex(Counters())
    private let log: DaemonLog

    init(
        transport: any LookupTransport, limiter: RateLimiter, fallbackBackoff: Duration, maximumBackoff: Duration,
        log: DaemonLog
    ) {
        self.transport = Mutex(transport)
        self.limiter = limiter
        self.backoff = Mutex((fallbackBackoff, maximumBackoff))
        self.log = log
    }

    /// Replaces the transport and throttling back-off after a reload changed `lookup.*` or `refresh.*`.
    func reconfigure(transport: any LookupTransport, fallbackBackoff: Duration, maximumBackoff: Duration) {
        self.transport.withLock { $0 = transport }
        self.backoff.withLock { $0 = (fallbackBackoff, maximumBackoff) }
    }

    /// The counters as of now, for `Admin.Status`.
    public var snapshot: Counters { counters.withLock { $0 } }

    /// Fetches `request` within the rate limit.
    func fetch(_ request: LookupRequest) async throws(LookupError) -> Data {
        do {
            try await limiter.acquire()
        } catch {
            throw .connection(detail: "cancelled while waiting for the rate limiter (shutting down)")
        }
        let transport = self.transport.withLock { $0 }
        counters.withLock { $0.requests += 1 }
        do {
            return try await transport.fetch(request)
        } catch {
            counters.withLock { counters in
                counters.failures += 1
                if error.isThrottled { counters.throttled += 1 }
            }
            if case .throttled(let status, let retryAfter) = error {
                let (fallback, ceiling) = backoff.withLock { $0 }
                let pause = min(retryAfter ?? fallback, ceiling)
                limiter.backOff(for: pause)
                let capped = (retryAfter ?? .zero) > ceiling ? " (Retry-After capped at refresh.interval)" : ""
                log.warning(
                    "upstream throttled \(request) with HTTP \(status); pausing all lookups for \(pause)\(capped)")
            }
            throw error
        }
    }

    /// Decodes a 2xx body with `decode`, counting a body that is not a usable lookup answer (malformed, or the
    /// missing-entity signature) as an upstream failure in Status, as a 5xx would be. A host the lookup does
    /// not know is a correct answer about our configuration, not a failure of the endpoint, and is not counted.
    func accepting<Value>(_ decode: () throws(LookupError) -> Value) throws(LookupError) -> Value {
        do {
            return try decode()
        } catch {
            switch error {
            case .malformed, .missingEntityParameter: counters.withLock { $0.failures += 1 }
            default: break
            }
            throw error
        }
    }
}
