import FoundationEssentials
@preconcurrency import Glibc
import ShowcaseCore
import ShowcaseExport

/// The icon side of an export pass (SPEC §16): each app's icons filled from the index before the documents are
/// written, the icons fetched since the last pass handed to the writer, and what is still lacking asked of the
/// fetcher — which works in the background, so the JSON is never held back waiting for images.
extension Exporter {
    /// Runs one pass of `plan` with `writer`: with `export.icons`, through the icon index (`kept`, the one the last
    /// pass left, which this pass replaces); without, as before.
    func export(
        _ plan: Plan, with writer: ExportWriter, remembering memory: inout ExportMemory,
        icons kept: inout ExportBook.KeptIcons?
    ) -> ExportReport {
        guard let sizes = plan.settings.icons?.sizes, !sizes.isEmpty, let settings = plan.iconFetch else {
            return writer.export(plan.rosters, remembering: &memory)
        }
        var index = iconIndex(in: plan.stateDirectory, kept: kept)
        let before = index
        var bytes: [String: Data] = [:]
        for (key, fetched) in icons.takeFetched() {
            index.record(key, path: fetched.path)
            bytes[fetched.path] = fetched.bytes
        }
        // Requests are made as rosters are built: a roster reused from the last pass (its fingerprint, which the
        // index's state is part of, unchanged) was built, and asked for its icons, then. The writer builds them (a
        // deferred roster's apps, the site's) only when it renders them, some at once: their requests are collected
        // in the state's export book while it runs.
        let owner = self.owner
        _ = owner.update { state, _ in state.takeAskedIcons() }
        let stamp = index.hashValue
        let rosters = plan.rosters.map { roster in
            var filled = Self.filling(roster, sizes: sizes, from: index) { asked in
                owner.update { state, _ in state.iconsAsked(asked) }
            }
            filled.fingerprint = filled.fingerprint.map { $0 + [stamp] }
            return filled
        }
        let report = writer.export(rosters, icons: bytes, known: index.files, remembering: &memory)
        index.forget(paths: report.missingIcons)
        let asked = owner.update { state, _ in state.takeAskedIcons() }
        // Apps and sizes no longer exported leave the index, once every roster was built now from current apps (a
        // roster reused, in a diagnostic, or warming after a start, has documents whose icons the index must keep).
        if report.rostersReused == 0, rosters.allSatisfy(\.isCurrent) { index.keep(only: Set(asked.map(\.key))) }
        if index != before, let problem = IconIndexFile(directory: plan.stateDirectory).save(index) {
            log.warning(
                "could not save the icon index in \(plan.stateDirectory): \(problem); icons already mirrored are "
                    + "fetched again after a restart")
        }
        kept = (plan.stateDirectory, index)
        if plan.fetchesLackingIcons { icons.want(asked.filter { index[$0.key] == nil }, settings: settings) }
        return report
    }

    /// The icons first, for a one-shot run (SPEC §17): every icon `plan`'s documents reference and the index lacks
    /// (or names a file no longer in the tree) is asked of the fetcher — by the same rules, one request per key, two
    /// at a time — and waited for until all have ended or `deadline` passes, so the pass that follows stores them
    /// and writes documents that already list them. `plan` must be ``Plan/built``: every roster's apps known.
    /// Returns every key the documents reference (for ``tally(_:)``); nil without `export.icons`.
    func mirrorIcons(for plan: Plan, until deadline: ContinuousClock.Instant) async -> Set<IconKey>? {
        guard let sizes = plan.settings.icons?.sizes, !sizes.isEmpty, let settings = plan.iconFetch else {
            return nil
        }
        var index = iconIndex(in: plan.stateDirectory, kept: owner.read { $0.exportBook.carried.icons })
        let tree = plan.settings.directory + "/v1/"
        index.forget(paths: index.files.filter { !Self.isRegularFile(tree + $0) })
        owner.update { [index] state, _ in state.iconIndexChecked(index, in: plan.stateDirectory) }
        let asked = plan.rosters.flatMap { roster -> [IconFetcher.Request] in
            let apps: [Platform: [ExportedApp]]
            switch roster.content {
            case .current(_, _, let built), .latest(let built, _): apps = built
            case .deferred, .keepLastGood, .absent: return []
            }
            let (filled, requests) = Self.filling(apps, sizes: sizes, from: index, round: roster.fetchedAt)
            // The site's pages show the host app too (SPEC §18): its icons are asked for with the documents'.
            guard case .latest = roster.content, let site = roster.siteApps else { return requests }
            return requests + Self.filling(site(filled), sizes: sizes, from: index, round: roster.fetchedAt).requests
        }
        let lacking = asked.filter { index[$0.key] == nil }
        guard !lacking.isEmpty else { return Set(asked.map(\.key)) }
        let icons = self.icons
        let clock = self.clock
        if clock.instant < deadline {
            icons.want(lacking, settings: settings)
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await icons.settled() }
                group.addTask { try? await clock.sleep(until: deadline) }
                _ = await group.next()
                group.cancelAll()
            }
        }
        let late = Set(lacking.map(\.key)).filter { icons.outcome(of: $0) == nil }.count
        if late > 0 {
            log.warning(
                "\(late) \(late == 1 ? "icon was" : "icons were") not fetched before the run stopped waiting "
                    + "(--max-wait, or a signal): their apps keep iconUrl only, and the next run fetches them")
        }
        return Set(asked.map(\.key))
    }

    /// What became of `referenced` after the pass that followed ``mirrorIcons(for:until:)``: mirrored when the index
    /// names its file now (the pass stored it, or it was there and still is), else refused or failed as the
    /// fetcher's last request for it ended (never asked, or still running at `--max-wait`: failed).
    func tally(_ referenced: Set<IconKey>) -> IconTally {
        let index = owner.read { $0.exportBook.carried.icons?.index } ?? IconIndex()
        var tally = IconTally(referenced: referenced.count)
        for key in referenced {
            if index[key] != nil {
                tally.mirrored += 1
            } else if icons.outcome(of: key) == .refused {
                tally.refused += 1
            } else {
                tally.failed += 1
            }
        }
        return tally
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// The index for `directory`: `kept` (the one the last pass left) when it was for the same directory, else read
    /// from its file (a problem reading it is logged; the icons are then fetched again).
    private func iconIndex(in directory: String, kept: ExportBook.KeptIcons?) -> IconIndex {
        if let kept, kept.directory == directory { return kept.index }
        let (index, problem) = IconIndexFile(directory: directory).load()
        if let problem {
            log.warning("could not read the icon index in \(directory): \(problem); icons are fetched again")
        }
        return index
    }

    /// `roster` with each app's icons at `sizes` taken from `index` as its apps are built — its site's apps too, the
    /// host app among them — each build handing `asked` its requests (``filling(_:sizes:from:round:)``; the caller
    /// keeps only those the index lacks).
    static func filling(
        _ roster: ExportRoster, sizes: [Int], from index: IconIndex,
        asked: @escaping @Sendable ([IconFetcher.Request]) -> Void
    ) -> ExportRoster {
        let round = roster.fetchedAt
        @Sendable func fill(_ apps: [Platform: [ExportedApp]]) -> [Platform: [ExportedApp]] {
            let (filled, requests) = filling(apps, sizes: sizes, from: index, round: round)
            asked(requests)
            return filled
        }
        var filled = roster
        switch roster.content {
        case .current(let revision, let revisedAt, let apps):
            filled.content = .current(revision: revision, revisedAt: revisedAt, apps: fill(apps))
        case .latest(let apps, let now): filled.content = .latest(apps: fill(apps), now: now)
        case .deferred(let now, let apps): filled.content = .deferred(now: now, apps: { fill(apps()) })
        case .keepLastGood, .absent: break
        }
        // The site's apps add the host app, whose icon no document lists: filled and asked for the same way.
        if let site = roster.siteApps { filled.siteApps = { @Sendable apps in fill(site(apps)) } }
        return filled
    }

    /// `apps` with their icons at `sizes` taken from `index`, and a request for every (app, size) of a roster
    /// fetched at `round`, whether the index has it or not. An app whose artwork URL cannot be sized gets none.
    static func filling(_ apps: [Platform: [ExportedApp]], sizes: [Int], from index: IconIndex, round: Date?)
        -> (apps: [Platform: [ExportedApp]], requests: [IconFetcher.Request])
    {
        var requests: [IconFetcher.Request] = []
        let filled = apps.mapValues { list in
            list.map { app in
                var app = app
                for size in sizes {
                    let key = IconKey(source: app.resolved.app.iconUrl, size: size)
                    guard key.canBeFetched else { continue }
                    requests.append(IconFetcher.Request(key: key, appId: app.resolved.app.id, round: round))
                    if let path = index[key] { app.icons[size] = path }
                }
                return app
            }
        }
        return (filled, requests)
    }
}

extension Exporter.Plan {
    /// The plan of a one-shot run, which hands it both to ``Exporter/mirrorIcons(for:until:)`` and to its one pass:
    /// every deferred roster's apps built now, so they are built once (a pass builds a deferred roster anyway when
    /// its memory cannot vouch for the files, which is always so in a new process), and no icon asked for after the
    /// pass (the run ends with it).
    var built: Exporter.Plan {
        var plan = self
        plan.rosters = rosters.map { roster in
            var roster = roster
            if case .deferred(let now, let apps) = roster.content { roster.content = .latest(apps: apps(), now: now) }
            return roster
        }
        plan.fetchesLackingIcons = false
        return plan
    }
}

extension ExportRoster {
    /// Whether its documents are written from current apps (not kept from an earlier pass, not absent).
    fileprivate var isCurrent: Bool {
        switch content {
        case .current, .latest, .deferred: true
        case .keepLastGood, .absent: false
        }
    }
}
