import Foundation
import ShowcaseCore

extension RosterService {
    /// Brings back, after a restart, the diagnostics no refresh has cleared yet, so `Roster.Get` keeps answering
    /// them and Status keeps showing them ("until a refresh succeeds") instead of the cached roster
    /// being served as fresh. Call after the rosters are listed and the identities loaded.
    ///
    /// A diagnostic older than the cached roster it concerns, or about a host whose identity is cached, is
    /// superseded (a success was stored after it; only a crash before its removal left it behind) and skipped.
    /// Storefronts left with a diagnostic are then not fresh for ``scheduleWarm(_:)``, so they are refreshed soon.
    func restoreDiagnostics(from cache: FileCache, over listed: [FileCache.Entry]) {
        var fetchedAt: [RosterStore.Key: Date] = [:]
        for entry in listed {
            let key = RosterStore.Key(artistId: entry.artistId, storefront: entry.storefront)
            fetchedAt[key] = max(fetchedAt[key] ?? entry.fetchedAt, entry.fetchedAt)
        }
        for diagnostic in cache.loadAllDiagnostics() {
            let storefront = diagnostic.storefront
            switch diagnostic.subject {
            case .roster(let artistId):
                let key = RosterStore.Key(artistId: artistId, storefront: storefront)
                if let fetched = fetchedAt[key], fetched > diagnostic.recordedAt { continue }
                store.record(artistId: artistId, storefront: storefront, .failure(diagnostic.error))
            case .host(let bundleId):
                if store.identity(bundleId) != nil { continue }
                store.recordIdentityFailure(host: bundleId, storefront: storefront, diagnostic.error)
            }
            if store.lastRefreshError(storefront) == nil { store.setLastRefreshError(storefront, diagnostic.error) }
            var fields: [DaemonLog.Field: String] = [
                .storefront: storefront.code, .error: diagnostic.error.description,
            ]
            if case .host(let bundleId) = diagnostic.subject { fields[.host] = bundleId }
            log.warning(
                "\(storefront): \(diagnostic.error) (kept from before the restart until a refresh succeeds)",
                fields: fields)
        }
    }
}
