import Foundation
import ShowcaseCore

/// How one storefront is refreshed: resolve any host identity not yet known (once, then cached), then one
/// roster request per developer — so a full warm of S storefronts for H hosts of one developer costs at
/// most S + H requests.
///
/// Results go to the cache file first (atomically) and then to the store, so a crash in between leaves a
/// roster on disk at least as new as the one served.
final class Refresher: Sendable {
    private let store: RosterStore
    private let upstream: Upstream
    private let config: ConfigHolder
    private let log: DaemonLog

    init(store: RosterStore, upstream: Upstream, config: ConfigHolder, log: DaemonLog) {
        self.store = store
        self.upstream = upstream
        self.config = config
        self.log = log
    }

    func refresh(_ storefront: Storefront) async -> RefreshOutcome {
        let snapshot = config.current
        let cache = config.cache
        var failure: LookupError?
        var changed = false
        var apps = 0

        let hosts = snapshot.configuration.hosts.map(\.bundleID)
        for request in RefreshPlan.identityRequests(hosts: hosts, identities: store.identities, storefront: storefront)
        {
            guard case .identity(let bundleID, _) = request else { continue }
            do {
                let body = try await upstream.fetch(request)
                let identity = try HostIdentity.decode(
                    bundleId: bundleID, storefront: storefront, body: body, resolvedAt: Date())
                do { try cache.store(identity) } catch {
                    log.warning("could not cache the identity of \(bundleID): \(error)")
                }
                store.setIdentity(identity)
                log.info("resolved \(bundleID): developer \(identity.artistId), app \(identity.trackId)")
            } catch {
                store.recordIdentityFailure(host: bundleID, storefront: storefront, error)
                failure = failure ?? error
                log.log(
                    error.isTransport ? .warning : .error, "identity of \(bundleID) in \(storefront): \(error)")
            }
        }

        let rosters = RefreshPlan.rosterRequests(hosts: hosts, identities: store.identities, storefronts: [storefront])
        for request in rosters {
            guard case .roster(let artistId, _) = request else { continue }
            do {
                let body = try await upstream.fetch(request)
                let roster = try Roster(artistId: artistId, storefront: storefront, body: body, fetchedAt: Date())
                store.decodeListed(artistId: artistId, storefront: storefront)
                do { try cache.store(roster) } catch {
                    log.warning("could not write the \(storefront) roster to the cache: \(error)")
                }
                if store.record(artistId: artistId, storefront: storefront, .success(roster)) { changed = true }
                apps += roster.apps.count
            } catch {
                store.record(artistId: artistId, storefront: storefront, .failure(error))
                failure = failure ?? error
                log.log(error.isTransport ? .warning : .error, "refresh of \(storefront) failed: \(error)")
            }
        }

        store.setLastRefreshError(storefront, failure)
        if let failure { return .failed(RefreshFailure(failure)) }
        if !rosters.isEmpty {
            log.info("refreshed \(storefront): \(apps) apps" + (changed ? " (changed)" : " (unchanged)"))
        }
        return .updated(changed: changed)
    }
}
