import FoundationEssentials
import Locking
import ShowcaseConfig
import ShowcaseCore
import Synchronization

/// The current configuration snapshot, swapped atomically by a reload, plus the reload bookkeeping
/// Status reports. Reads take an uncontended lock for a pointer copy; the hot path reads `generation`
/// with one atomic load.
final class ConfigHolder: Sendable {
    private let snapshot: Lock<ConfigSnapshot>
    private let generationValue: Atomic<Int>
    private let reloadError = Lock<String?>(nil)
    /// The cache, fixed at startup (`cache.directory` or `--cache-dir`; a reload does not move it).
    let cache: FileCache
    private let makeTransport: @Sendable (Configuration) -> any LookupTransport

    /// Holds `configuration` as generation 1; each snapshot's transport is made by `transport`.
    init(
        _ configuration: Configuration, cache: FileCache,
        transport: @escaping @Sendable (Configuration) -> any LookupTransport
    ) {
        snapshot = Lock(
            ConfigSnapshot(configuration: configuration, generation: 1, transport: transport(configuration)))
        generationValue = Atomic(1)
        self.cache = cache
        self.makeTransport = transport
    }

    var current: ConfigSnapshot { snapshot.withLock { $0 } }
    var generation: Int { generationValue.load(ordering: .acquiring) }

    /// Installs `configuration` as the next generation and returns the new snapshot.
    func install(_ configuration: Configuration) -> ConfigSnapshot {
        let transport = makeTransport(configuration)
        let next = snapshot.withLock { current in
            current = ConfigSnapshot(
                configuration: configuration, generation: current.generation + 1, transport: transport)
            return current
        }
        generationValue.store(next.generation, ordering: .releasing)
        reloadError.withLock { $0 = nil }
        return next
    }

    var lastReloadError: String? {
        get { reloadError.withLock { $0 } }
        set { reloadError.withLock { $0 = newValue } }
    }
}
