import Locking
import Synchronization

/// How many calls a server has dispatched to each method it serves, since it started: what a metrics endpoint
/// exports as `…_calls_total{method=…}`.
///
/// Only methods with a route are counted, so a client calling made-up names cannot grow the set of names. The
/// counters are created when an interface is added; dispatching a call is one relaxed atomic increment on a
/// counter the route already holds, with no lock and no lookup on the hot path.
public final class VarlinkCallCounts: Sendable {
    /// One method's count.
    final class Counter: Sendable {
        private let count = Atomic<Int>(0)

        /// Counts one call.
        func increment() { count.wrappingAdd(1, ordering: .relaxed) }

        /// The calls counted so far.
        var value: Int { count.load(ordering: .relaxed) }
    }

    private let counters = Lock<[String: Counter]>([:])

    init() {}

    /// The counter of the fully qualified `method`, created on first use.
    func counter(for method: String) -> Counter {
        counters.withLock { counters in
            if let existing = counters[method] { return existing }
            let counter = Counter()
            counters[method] = counter
            return counter
        }
    }

    /// Every served method's fully qualified name (`io.showcase.Roster.Get`) and its calls so far, including
    /// methods not called yet (0).
    public func snapshot() -> [String: Int] {
        counters.withLock { $0.mapValues(\.value) }
    }
}
