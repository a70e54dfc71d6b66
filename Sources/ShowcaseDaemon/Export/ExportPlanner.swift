import FoundationEssentials
import ShowcaseConfig
import ShowcaseCore
import ShowcaseExport
import ShowcaseHistory

/// What an export pass writes, planned from the state as it is now: every configured host's rosters as the export
/// shows them (``exportPlan()``), and the export's line in Status. Built once by the ``DaemonRuntime`` from the
/// parts it reads — the state (the configuration, each host's settings epoch and the last pass, all in its
/// ``ExportBook``), the clock, the history and the changes the feeds show — and handed to the ``ExportService`` and
/// a one-shot run as their plan. It never calls the ``Exporter``: what a pass needs to know of earlier ones is read
/// from the state, where the reload and the pass that changed it left it.
struct ExportPlanner: Sendable {
    /// The daemon's state and its one owner.
    let state: StateOwner
    /// The daemon's one clock.
    let clock: any ShowcaseClock
    /// The change history the feeds and the site read.
    let history: HistoryRecorder
    /// The overlay and attribution applied to history entries.
    let changes: ChangesReader

    /// `entries` as `host`'s overlay shows them now (``ChangesReader/shownEntries(_:host:snapshot:on:)``).
    private func shownEntries(
        _ entries: [HistoryEntry], host: HostConfiguration, snapshot: ConfigSnapshot, on surface: AttributionSurface
    ) -> [HistoryEntry] {
        changes.shownEntries(entries, host: host, snapshot: snapshot, on: surface)
    }
}

extension ExportPlanner {
    /// What an export pass writes now: every configured host in every configured storefront, in each of its
    /// languages (storefronts only queried on demand are not exported), with the settings of the same
    /// configuration; nil without `export:`.
    func exportPlan() -> Exporter.Plan? {
        // The epochs the reload that installed this configuration gave its hosts, read with it.
        let (snapshot, epochs) = state.read { ($0.config, $0.exportBook.epochs) }
        guard let settings = snapshot.configuration.export else { return nil }
        let now = clock.now
        var rosters: [ExportRoster] = []
        for host in snapshot.configuration.hosts {
            for storefront in snapshot.configuration.storefronts {
                let editions = snapshot.configuration.editions(of: storefront)
                for edition in editions {
                    rosters.append(
                        exportRoster(
                            host: host, edition: edition, isDefault: edition == editions[0], snapshot: snapshot,
                            epoch: epochs[host.bundleID] ?? 0, now: now))
                }
            }
        }
        let lookup = snapshot.configuration.lookup
        var plan = Exporter.Plan(
            settings: settings, rosters: rosters, stateDirectory: snapshot.configuration.state.directory,
            iconFetch: settings.icons.map {
                IconFetcher.Settings(rules: lookup.urlRules, maxBytes: $0.maxBytes, timeout: lookup.timeout)
            })
        if settings.html {
            plan.renderers += WebSurfaces.documentRenderers
            plan.hostRenderers += WebSurfaces.hostRenderers
        }
        if settings.feed { plan.renderers.append(AtomFeedRenderer()) }
        if let site = settings.site {
            plan.site = SiteWriter(
                settings: SiteDescription(
                    url: site.url, title: site.title,
                    pages: site.pages.mapValues { SiteTexts(support: $0.support?.text, privacy: $0.privacy?.text) }),
                // One site serves every host: its words follow the global overlay's `labels`.
                labels: snapshot.configuration.overlay.labels)
        }
        return plan
    }

    /// One roster as the export shows it, built by the reply builder `Roster.Get` uses (``RosterView``) from one
    /// answer of the store for both platforms: overlay order, exclusions, attribution, the host itself removed,
    /// the tagline for the storefront's own locale — and neither an OS floor nor a device filter (not even `Get`'s
    /// default of iPhone or iPad on the iOS store), since a page filters by the visitor's device and OS with each
    /// app's `devices` and `minimumOsVersion`. Each app also lists every locale's tagline.
    ///
    /// A roster in a diagnostic, or unavailable, keeps the documents written earlier (the web keeps the last
    /// good roster) and `index.json` says why; one never fetched has none. A warming roster also keeps an earlier
    /// document, so a daemon that lost its cache does not blank the web until its first fetch.
    ///
    /// Languages: a storefront configured with `languages` gives one ``ExportRoster`` per language, each from the
    /// store's answer for that language, `language` set (its documents under `<storefront>/<language>/`) and
    /// `isDefault` for the first, which is also written at the storefront's own path. A language's tagline is
    /// the one for that language in the storefront (`fr-CA`), what `Get` with that locale answers. A plain
    /// storefront gives one roster without a language.
    private func exportRoster(
        host: HostConfiguration, edition: StorefrontEdition, isDefault: Bool, snapshot: ConfigSnapshot, epoch: Int,
        now: Date
    ) -> ExportRoster {
        let storefront = edition.storefront
        let found = state.answer(host: host.bundleID, edition: edition, now: now, under: snapshot)
        let (answer, revision, identity) = (found.answer, found.revision, found.identity)
        let locale = edition.language.map { "\($0.code)-\(storefront.code.uppercased())" }
        let language = edition.language?.code
        /// The view of the answer for `platform`, as `Get` resolves it but for every device.
        @Sendable func view(_ platform: Platform) -> RosterView {
            var request = RosterRequest(
                snapshot: snapshot, storefront: storefront, host: host, platform: platform, locale: locale,
                edition: edition)
            request.everyDevice = true
            request.surface = .json
            return RosterView(found, request: request)
        }
        switch answer {
        case .roster(let roster, _):
            // The feeds' entries, from the history's copy in memory: no file is read for a history that did not
            // change since it was last read.
            let history =
                snapshot.configuration.export.map { $0.feed || $0.site != nil } == true
                ? self.history.reading(
                    HistoryKey(host: host.bundleID, edition: edition), keep: snapshot.configuration.historyKeep,
                    urlRules: snapshot.configuration.lookup.urlRules)
                : nil
            // The apps are built only when the writer must render (``ExportRoster/Content-swift.enum/deferred``):
            // the same roster revision and fetch, the same identity, the same host settings (overlay,
            // attribution) and the same history give the same files.
            let fingerprint = ExportFingerprint(
                revision: revision, fetchedAt: roster.fetchedAt, resultCount: roster.resultCount,
                artistId: identity?.artistId ?? 0, hostAppId: identity?.trackId ?? host.appID ?? 0,
                settingsEpoch: epoch, historyLatest: history?.latest ?? -1, historyBaseline: history?.baselineAt)
            let linked = webSurfaces(linkingApart: host, in: snapshot.configuration)
            let apps: @Sendable () -> [Platform: [ExportedApp]] = {
                var apps: [Platform: [ExportedApp]] = [:]
                for platform in Platform.allCases {
                    let platformView = view(platform)
                    apps[platform] = platformView.apps.map {
                        var app = ExportedApp($0, tagline: host.overlay.taglines[$0.id])
                        for surface in linked {
                            var query = platformView.resolution
                            query.surface = surface
                            app.storeUrls[surface] = query.storeUrl(of: $0.app)
                        }
                        return app
                    }
                }
                return apps
            }
            var exported = ExportRoster(
                host: host.bundleID, storefront: storefront, language: language, isDefaultLanguage: isDefault,
                state: ServedState(answer), fetchedAt: roster.fetchedAt,
                content: .deferred(now: now, apps: apps), artistName: history?.artistName,
                hostAppId: identity?.trackId ?? host.appID, fingerprint: fingerprint.values)
            exported.labels = host.overlay.labels
            if let history {
                exported.changes = shownEntries(history.entries, host: host, snapshot: snapshot, on: .feed)
                exported.changesSince = history.baselineAt
                exported.releases = history.releases
            }
            if snapshot.configuration.export?.site != nil { exported.siteApps = Self.withHost(view) }
            return exported
        case .warming:
            return ExportRoster(
                host: host.bundleID, storefront: storefront, language: language, isDefaultLanguage: isDefault,
                state: .warming, fetchedAt: nil, content: .keepLastGood(revision: nil))
        case .unavailable, .failed:
            let error =
                view(snapshot.configuration.defaultPlatform).problem?.description
                ?? "the \(edition) roster cannot be served now"
            return ExportRoster(
                host: host.bundleID, storefront: storefront, language: language, isDefaultLanguage: isDefault,
                state: ServedState(answer), fetchedAt: nil, error: error,
                content: .keepLastGood(revision: nil), hostAppId: identity?.trackId ?? host.appID)
        }
    }

    /// The site's apps of a roster (SPEC §18, "no host is excluded here"): the documents' apps, with the host app
    /// itself where the overlay's order puts it (its store link attributed for the site; its icons mirrored with the
    /// documents' apps', ``Exporter/filling(_:sizes:from:asked:)``).
    private static func withHost(_ view: @escaping @Sendable (Platform) -> RosterView)
        -> @Sendable ([Platform: [ExportedApp]]) -> [Platform: [ExportedApp]]
    {
        { apps in
            var shown: [Platform: [ExportedApp]] = [:]
            for platform in Platform.allCases {
                let platformView = view(platform)
                var query = platformView.resolution
                query.includesHost = true
                query.surface = .site
                let listed = Dictionary((apps[platform] ?? []).map { ($0.resolved.id, $0) }) { first, _ in first }
                shown[platform] = (platformView.roster.map(query.resolve) ?? []).map { resolved in
                    if let known = listed[resolved.id] { return known }
                    var host = ExportedApp(resolved, tagline: platformView.resolution.overlay.taglines[resolved.id])
                    host.storeUrls[.site] = resolved.storeUrl
                    return host
                }
            }
            return shown
        }
    }

    /// The web surfaces (`html`, `email`, `site`) whose store links for `host` may differ from the JSON documents' (their own
    /// campaign token or a product page of their own): only those get a URL of their own per app, so an export
    /// without per-surface attribution does no more work than before it existed.
    private func webSurfaces(linkingApart host: HostConfiguration, in configuration: Configuration)
        -> [AttributionSurface]
    {
        let surfaces =
            (configuration.export?.html == true ? [AttributionSurface.html, .email] : [])
            + (configuration.export?.site != nil ? [AttributionSurface.site] : [])
        let tokens = configuration.attribution.campaignTokens
        return surfaces.filter { surface in
            (configuration.attribution.providerToken != nil && tokens[surface] != tokens[.json])
                || host.overlay.productPages.values.contains { $0.id(on: surface) != $0.id(on: .json) }
        }
    }

    /// The export's line in Status: the directory, and how the last pass into it went; nil without `export:`.
    func exportStatus() -> StatusReport.Export? {
        guard let settings = state.config.configuration.export else { return nil }
        // A pass into a directory used before a reload moved it says nothing about the new one.
        let last = state.read { $0.exportBook.last }.flatMap { $0.report.directory == settings.directory ? $0 : nil }
        return StatusReport.Export(
            directory: settings.directory, exportedAt: last?.finishedAt, errors: last?.report.errors.count ?? 0,
            lastError: last?.report.errors.first?.message)
    }
}
