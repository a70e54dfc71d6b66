import FoundationEssentials
import Locking
import ShowcaseCore

/// The only way the daemon reaches the lookup endpoint: every request waits for the shared rate limiter,
/// is counted for Status, and a 403/429 pauses all upstream traffic (for `Retry-After` when given).
final class Upstream: Sendable {
    /// Counters reported by `Admin.Status`.
    struct Counters: Sendable, Equatable {
        /// Requests sent upstream (after the rate limiter let them through).
        var requests = 0
        /// Requests that failed, plus 2xx bodies that were not a usable lookup answer.
        var failures = 0
        /// Failures that were a 403 or 429, each of which paused all upstream traffic.
        var throttled = 0
    }

    private let state: StateOwner
    let limiter: RateLimiter
    private let counters = Lock(Counters())
    private let log: DaemonLog

    /// The upstream of the current configuration's transport, behind `limiter`.
    init(state: StateOwner, limiter: RateLimiter, log: DaemonLog) {
        self.state = state
        self.limiter = limiter
        self.log = log
    }

    /// The counters as of now, for `Admin.Status`.
    var snapshot: Counters { counters.withLock { $0 } }

    /// Fetches `request` within the rate limit.
    func fetch(_ request: LookupRequest) async throws(LookupError) -> Data {
        do {
            try await limiter.acquire()
        } catch {
            throw .connection(detail: "cancelled while waiting for the rate limiter (shutting down)")
        }
        let current = state.config
        counters.withLock { $0.requests += 1 }
        do {
            return try await current.transport.fetch(request)
        } catch {
            counters.withLock { counters in
                counters.failures += 1
                if error.isThrottled { counters.throttled += 1 }
            }
            if case .throttled(let status, let retryAfter) = error {
                // Without `Retry-After`, `refresh.retry`; never longer than `refresh.interval`: an absurd
                // `Retry-After` must not silence every refresh and `Admin.Refresh` for days.
                let (fallback, ceiling) = (current.schedule.retry, current.schedule.interval)
                let pause = min(retryAfter ?? fallback, ceiling)
                limiter.backOff(for: pause)
                let capped = (retryAfter ?? .zero) > ceiling ? " (Retry-After capped at refresh.interval)" : ""
                log.warning(
                    "upstream throttled \(request) with HTTP \(status); pausing all lookups for \(pause)\(capped)",
                    fields: [.storefront: request.storefront.code, .error: error.description])
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
