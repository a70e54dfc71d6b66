import FoundationEssentials
import ShowcaseCore

/// The state seeded at startup, before the socket opens: the cache directory's identities, roster listing and
/// diagnostics, then every configured storefront on the refresh schedule. Built from the state and the log.
struct CacheSeeder: Sendable {
    /// The daemon's state and its one owner (its ``StateOwner/cache`` is read).
    let state: StateOwner
    /// Where abandoned files and restored diagnostics are reported.
    let log: DaemonLog

    /// Seeds the store from the cache directory: host identities, the listing of every roster file, then the
    /// diagnostics no refresh has cleared. Only headers are read (a few milliseconds for 175 storefronts); each
    /// roster is decoded when first needed, or by the ``CacheDecodingService`` after READY. Returns how many
    /// rosters are listed.
    func loadCache() -> Int {
        let cache = state.cache
        let abandoned = cache.removeAbandonedTemporaryFiles()
        if abandoned > 0 { log.info("removed \(abandoned) temporary cache files left by an interrupted write") }
        let hosts = state.config.configuration.hosts
        let identities = hosts.compactMap { cache.loadIdentity(bundleId: $0.bundleID) }
        let listed = cache.listRosters()
        state.update { state, _ in state.load(identities: identities, listed: listed) }
        restoreDiagnostics(from: cache, over: listed)
        return listed.count
    }

    /// Puts `storefronts` on the schedule, each of its editions (one per configured language, or the plain
    /// one): fresh ones at the end of their lifetime, stale and missing ones spread one rate-limiter slot apart.
    func scheduleWarm(_ storefronts: [Storefront]) {
        let now = state.moment
        state.update { state, draw in
            state.keepWarm(storefronts.flatMap { state.config.configuration.editions(of: $0) }, at: now, draw: draw)
        }
    }
}
