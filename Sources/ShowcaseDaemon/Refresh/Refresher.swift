import FoundationEssentials
import ShowcaseCore

/// How one storefront edition is refreshed: resolve any host identity not yet known (once, then cached), then one
/// roster request per developer in the edition's language (`lang=fr_ca`; none for a plain storefront) — so a full
/// warm of S editions for H hosts of one developer costs at most S + H requests.
///
/// Results go to the cache file first (atomically) and then to the store, so a crash in between leaves a
/// roster on disk at least as new as the one served. A diagnostic is written to its own file and removed by the
/// next success (after the roster file, so a crash in between leaves a roster newer than the diagnostic, which
/// then no longer counts).
final class Refresher: Sendable {
    private let state: StateOwner
    private let upstream: Upstream
    private let clock: any ShowcaseClock
    private let log: DaemonLog
    /// Where each successful roster's changes are recorded, for every host of its developer.
    private let history: HistoryRecorder

    init(
        state: StateOwner, upstream: Upstream, clock: any ShowcaseClock, log: DaemonLog, history: HistoryRecorder
    ) {
        self.state = state
        self.history = history
        self.upstream = upstream
        self.clock = clock
        self.log = log
    }

    func refresh(_ edition: StorefrontEdition) async -> RefreshOutcome {
        let storefront = edition.storefront
        let snapshot = state.config
        let cache = state.cache
        var failure: LookupError?
        var cacheFailure: String?
        var changed = false
        /// Each developer's software rows, as upstream sent them (less rows dropped as unusable).
        var rows: [(artistId: Int, rows: Int)] = []

        let hosts = snapshot.configuration.hosts.map(\.bundleID)
        let identityRequests = RefreshPlan.identityRequests(
            hosts: hosts, identities: state.identities, storefront: storefront, now: clock.now,
            lifetime: snapshot.configuration.refresh.interval)
        for request in identityRequests {
            guard case .identity(let bundleID, _) = request else { continue }
            let known = state.identity(bundleID)
            do {
                let body = try await upstream.fetch(request)
                let identity = try upstream.accepting { () throws(LookupError) in
                    try HostIdentity.decode(
                        bundleId: bundleID, storefront: storefront, body: body, resolvedAt: clock.now)
                }
                do { try cache.store(identity) } catch {
                    log.warning(
                        "could not cache the identity of \(bundleID): \(error)",
                        fields: [.host: bundleID, .storefront: storefront.code, .error: "\(error)"])
                }
                cache.removeDiagnostics(for: .host(bundleId: bundleID))
                if case .transferred = state.resolved(identity), let warning = state.hostWarning(bundleID) {
                    log.warning(warning, fields: [.host: bundleID, .storefront: storefront.code])
                } else {
                    log.info(
                        "resolved \(bundleID): developer \(identity.artistId), app \(identity.trackId)",
                        fields: [.host: bundleID, .storefront: storefront.code])
                }
            } catch let error where known != nil {
                // A re-resolution that fails keeps the identity in use: the developer's other apps are still real.
                // Checked again after another interval, not on every storefront's refresh.
                if !error.isTransport {
                    let now = clock.now
                    state.update { state, _ in state.reresolutionFailed(bundleID, in: storefront, error, at: now) }
                }
                log.warning(
                    "could not re-resolve \(bundleID) in \(storefront) (\(error)); still serving developer "
                        + "\(known?.artistId ?? 0)'s roster",
                    fields: [.host: bundleID, .storefront: storefront.code, .error: error.description])
            } catch {
                persist(error, of: .host(bundleId: bundleID), in: storefront, cache: cache)
                state.recordIdentityFailure(host: bundleID, storefront: storefront, error)
                failure = failure ?? error
                log.log(
                    error.isTransport ? .warning : .error, "identity of \(bundleID) in \(storefront): \(error)",
                    fields: [.host: bundleID, .storefront: storefront.code, .error: error.description])
            }
        }

        let rosters = RefreshPlan.rosterRequests(hosts: hosts, identities: state.identities, editions: [edition])
        // Roster lines carry the language too, so a journal query can follow one language of a storefront.
        var fields: [DaemonLog.Field: String] = [.storefront: storefront.code]
        if let language = edition.language { fields[.language] = language.code }
        for request in rosters {
            guard case .roster(let artistId, _, _) = request else { continue }
            do {
                let body = try await upstream.fetch(request)
                let roster = try upstream.accepting { () throws(LookupError) in
                    try Roster(
                        artistId: artistId, storefront: storefront, body: body, fetchedAt: clock.now,
                        urlRules: snapshot.configuration.lookup.urlRules)
                }
                // Logged before the roster is served, so whoever sees it in Status finds these lines in the log.
                logUnknownDeviceModels(in: roster)
                if roster.droppedRows.count > 0 {
                    log.warning(
                        "the \(edition) roster of developer \(artistId): \(roster.droppedRows)", fields: fields)
                }
                if roster.isTruncated {
                    log.warning(
                        "the \(edition) roster of developer \(artistId) holds \(LookupRequest.rosterLimit) software "
                            + "rows, the lookup's maximum: apps past that are not listed", fields: fields)
                }
                state.decodeListed(artistId: artistId, edition: edition)
                do { try cache.store(roster, language: edition.language) } catch {
                    // Served from memory all the same, but a restart would lose it: a failed refresh for the caller.
                    let message =
                        "the new roster is served from memory, but the cache could not be written (\(error)); "
                        + "check that cache.directory is writable and its file system has space"
                    log.error(
                        "refresh of \(edition): \(message)", fields: fields.merging([.error: "\(error)"]) { $1 })
                    cacheFailure = cacheFailure ?? message
                }
                cache.removeDiagnostic(
                    for: .roster(artistId: artistId, language: edition.language), storefront: storefront)
                // After the cache write, before the store serves the roster: once a query (or Status) sees it,
                // its changes are in `Roster.Changes` too, and the refresh is not still busy with history files
                // while everything else already reads it as done. The history compares with its own baseline.
                let owners = hosts.compactMap { bundleID -> (bundleID: String, trackId: Int?)? in
                    guard let identity = state.identity(bundleID), identity.artistId == artistId else { return nil }
                    return (bundleID, identity.trackId)
                }
                history.record(
                    roster, edition: edition, hosts: owners, keep: snapshot.configuration.historyKeep,
                    urlRules: snapshot.configuration.lookup.urlRules)
                if state.record(artistId: artistId, edition: edition, .success(roster)) { changed = true }
                rows.append((artistId, roster.apps.count))
            } catch {
                persist(
                    error, of: .roster(artistId: artistId, language: edition.language), in: storefront, cache: cache)
                state.record(artistId: artistId, edition: edition, .failure(error))
                failure = failure ?? error
                log.log(
                    error.isTransport ? .warning : .error, "refresh of \(edition) failed: \(error)",
                    fields: fields.merging([.error: error.description]) { $1 })
            }
        }

        state.update { state, _ in
            state.finishedRefresh(edition, error: failure, cacheWriteError: failure == nil ? cacheFailure : nil)
        }
        if let failure { return .failed(RefreshFailure(failure)) }
        if let cacheFailure { return .failed(RefreshFailure(cacheFailure)) }
        if !rosters.isEmpty {
            // Rows, named so: each host's `--once` report line gives its developer's rows and the apps served on the
            // default platform (`17 rows, 11 apps on iOS`), and the same row count must read the same here.
            let counted = rows.map { "\($0.rows) \($0.rows == 1 ? "row" : "rows") from developer \($0.artistId)" }
            log.info(
                "refreshed \(edition): \(counted.joined(separator: ", "))" + (changed ? " (changed)" : " (unchanged)"),
                fields: fields)
        }
        return .updated(changed: changed)
    }

    /// Logs each `supportedDevices` model no device family knows, once per run (``DaemonLog/once(_:)``): a new
    /// Apple device whose apps count as iPhone and iPad until `DeviceFamily` learns its prefix.
    private func logUnknownDeviceModels(in roster: Roster) {
        for model in roster.unknownDeviceModels.sorted() where log.once("device model \(model)") {
            log.warning(
                "the \(roster.storefront) roster lists the device model '\(model)', which maps to no device family; "
                    + "apps listing only such models count as iPhone and iPad until showcased learns its prefix")
        }
    }

    /// Writes a diagnostic to the cache directory (next to the untouched roster), so a restart still answers
    /// it until a refresh succeeds. Transport failures are not persisted: they never hide the cache.
    private func persist(
        _ error: LookupError, of subject: FileCache.Diagnostic.Subject, in storefront: Storefront, cache: FileCache
    ) {
        guard
            let diagnostic = FileCache.Diagnostic(
                subject: subject, storefront: storefront, error: error, recordedAt: clock.now)
        else { return }
        do { try cache.store(diagnostic) } catch {
            log.warning(
                "could not keep the \(storefront) diagnostic in the cache: \(error)",
                fields: [.storefront: storefront.code, .error: "\(error)"])
        }
    }
}
