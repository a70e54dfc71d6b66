import FoundationEssentials
import ShowcaseCore

extension CacheSeeder {
    /// Brings back, after a restart, the diagnostics no refresh has cleared yet, so `Roster.Get` keeps answering
    /// them and Status keeps showing them ("until a refresh succeeds") instead of the cached roster
    /// being served as fresh. Call after the rosters are listed and the identities loaded.
    ///
    /// A diagnostic older than the cached roster it concerns, or about a host whose identity is cached, is
    /// superseded (a success was stored after it; only a crash before its removal left it behind) and skipped.
    /// Storefronts left with a diagnostic are then not fresh for ``scheduleWarm(_:)``, so they are refreshed soon.
    func restoreDiagnostics(from cache: FileCache, over listed: [FileCache.Entry]) {
        var fetchedAt: [RosterBook.Key: Date] = [:]
        for entry in listed {
            let key = RosterBook.Key(artistId: entry.artistId, entry.edition)
            fetchedAt[key] = max(fetchedAt[key] ?? entry.fetchedAt, entry.fetchedAt)
        }
        for diagnostic in cache.loadAllDiagnostics() {
            let storefront = diagnostic.storefront
            var editions = [StorefrontEdition(storefront)]
            switch diagnostic.subject {
            case .roster(let artistId, let language):
                let edition = StorefrontEdition(storefront, language: language)
                editions = [edition]
                let key = RosterBook.Key(artistId: artistId, edition)
                if let fetched = fetchedAt[key], fetched > diagnostic.recordedAt { continue }
                state.record(artistId: artistId, edition: edition, .failure(diagnostic.error))
            case .host(let bundleId):
                if state.identity(bundleId) != nil { continue }
                state.recordIdentityFailure(host: bundleId, storefront: storefront, diagnostic.error)
                // An identity failure concerns every roster of the storefront, in each configured language.
                editions = state.config.configuration.editions(of: storefront)
            }
            state.update { state, _ in
                var change = StateChange.none
                for edition in editions { change.merge(state.restoreLastRefreshError(edition, diagnostic.error)) }
                return change
            }
            var fields: [DaemonLog.Field: String] = [
                .storefront: storefront.code, .error: diagnostic.error.description,
            ]
            if case .host(let bundleId) = diagnostic.subject { fields[.host] = bundleId }
            if case .roster(_, let language?) = diagnostic.subject { fields[.language] = language.code }
            log.warning(
                "\(editions.count == 1 ? editions[0].description : storefront.code): \(diagnostic.error) "
                    + "(kept from before the restart until a refresh succeeds)",
                fields: fields)
        }
    }
}
