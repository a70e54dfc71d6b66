import Foundation
import ShowcaseCore
import Synchronization

/// The only way the daemon reaches the lookup endpoint: every request waits for the shared rate limiter,
/// is counted for Status, and a 403/429 pauses all upstream traffic (for `Retry-After` when given).
public final class Upstream: Sendable {
    /// Counters reported by `Admin.Status`.
    public struct Counters: Sendable, Equatable {
        public var requests = 0
        public var failures = 0
        public var throttled = 0
    }

    private let transport: Mutex<any LookupTransport>
    private let fallbackBackoff: Mutex<Duration>
    let limiter: RateLimiter
    private let counters = Mutex(Counters())
    private let log: DaemonLog

    init(transport: any LookupTransport, limiter: RateLimiter, fallbackBackoff: Duration, log: DaemonLog) {
        self.transport = Mutex(transport)
        self.limiter = limiter
        self.fallbackBackoff = Mutex(fallbackBackoff)
        self.log = log
    }

    /// Replaces the transport and throttling fallback after a reload changed `lookup.*` or `refresh.retry`.
    func reconfigure(transport: any LookupTransport, fallbackBackoff: Duration) {
        self.transport.withLock { $0 = transport }
        self.fallbackBackoff.withLock { $0 = fallbackBackoff }
    }

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
                let pause = retryAfter ?? fallbackBackoff.withLock { $0 }
                limiter.backOff(for: pause)
                log.warning("upstream throttled \(request) with HTTP \(status); pausing all lookups for \(pause)")
            }
            throw error
        }
    }
}
