import Foundation
import ShowcaseCore
import ShowcaseExport

/// The icon side of an export pass (SPEC §16): each app's icons filled from the index before the documents are
/// written, the icons fetched since the last pass handed to the writer, and what is still lacking asked of the
/// fetcher — which works in the background, so the JSON is never held back waiting for images.
extension Exporter {
    /// Runs one pass of `plan` with `writer`: with `export.icons`, through the icon index; without, as before.
    func export(_ plan: Plan, with writer: ExportWriter, remembering memory: inout ExportMemory) -> ExportReport {
        guard let sizes = plan.settings.icons?.sizes, !sizes.isEmpty, let settings = plan.iconFetch else {
            return writer.export(plan.rosters, remembering: &memory)
        }
        var index = iconIndex(in: plan.stateDirectory)
        let before = index
        var bytes: [String: Data] = [:]
        for (key, fetched) in icons.takeFetched() {
            index.record(key, path: fetched.path)
            bytes[fetched.path] = fetched.bytes
        }
        var requests: [IconFetcher.Request] = []
        let rosters = plan.rosters.map { roster in
            Self.filling(roster, sizes: sizes, from: index, requests: &requests)
        }
        let report = writer.export(rosters, icons: bytes, remembering: &memory)
        index.forget(paths: report.missingIcons)
        // Apps and sizes no longer exported leave the index, once every roster is current (a roster in a
        // diagnostic, or warming after a start, keeps documents whose icons the index must still know).
        if rosters.allSatisfy(\.isCurrent) { index.keep(only: Set(requests.map(\.key))) }
        if index != before, let problem = IconIndexFile(directory: plan.stateDirectory).save(index) {
            log.warning(
                "could not save the icon index in \(plan.stateDirectory): \(problem); icons already mirrored are "
                    + "fetched again after a restart")
        }
        state.withLock { $0.iconIndex = (plan.stateDirectory, index) }
        icons.want(requests.filter { index[$0.key] == nil }, settings: settings)
        return report
    }

    /// The index for `directory`: the one the last pass left when it was for the same directory, else read from
    /// its file (a problem reading it is logged; the icons are then fetched again).
    private func iconIndex(in directory: String) -> IconIndex {
        if let known = state.withLock({ $0.iconIndex }), known.directory == directory { return known.index }
        let (index, problem) = IconIndexFile(directory: directory).load()
        if let problem {
            log.warning("could not read the icon index in \(directory): \(problem); icons are fetched again")
        }
        return index
    }

    /// `roster` with each app's icons at `sizes` taken from `index`, adding a request for every (app, size) to
    /// `requests` (the caller keeps only those the index lacks). An app whose artwork URL cannot be sized gets none.
    static func filling(
        _ roster: ExportRoster, sizes: [Int], from index: IconIndex, requests: inout [IconFetcher.Request]
    ) -> ExportRoster {
        func fill(_ apps: [Platform: [ExportedApp]]) -> [Platform: [ExportedApp]] {
            apps.mapValues { list in
                list.map { app in
                    var app = app
                    for size in sizes {
                        let key = IconKey(source: app.resolved.app.iconUrl, size: size)
                        guard key.url != nil else { continue }
                        requests.append(
                            IconFetcher.Request(key: key, appId: app.resolved.app.id, round: roster.fetchedAt))
                        if let path = index[key] { app.icons[size] = path }
                    }
                    return app
                }
            }
        }
        var filled = roster
        switch roster.content {
        case .current(let revision, let revisedAt, let apps):
            filled.content = .current(revision: revision, revisedAt: revisedAt, apps: fill(apps))
        case .latest(let apps, let now): filled.content = .latest(apps: fill(apps), now: now)
        case .keepLastGood, .absent: break
        }
        return filled
    }
}

extension ExportRoster {
    /// Whether its documents are written from current apps (not kept from an earlier pass, not absent).
    fileprivate var isCurrent: Bool {
        switch content {
        case .current, .latest: true
        case .keepLastGood, .absent: false
        }
    }
}
