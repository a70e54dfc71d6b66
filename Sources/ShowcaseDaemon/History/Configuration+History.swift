import Foundation
import ShowcaseConfig

extension Configuration {
    /// Where the change history lives: `<state.directory>/history`.
    var historyDirectory: String { ProcessInfoStateDirectory.value(cacheDirectory: cache.directory) }
    /// `history.keep`: entries kept per (host, storefront, language).
    var historyKeep: Int { 100 }
}

/// Until `state.directory` is read from the configuration: `$STATE_DIRECTORY`, else beside the cache.
enum ProcessInfoStateDirectory {
    static func value(cacheDirectory: String) -> String {
        if let directory = ProcessInfo.processInfo.environment["STATE_DIRECTORY"], !directory.isEmpty {
            return directory
        }
        return cacheDirectory + "/state"
    }
}
