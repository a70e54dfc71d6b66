import FoundationEssentials
import ShowcaseCore

/// The first phase of an export pass: what the rosters call for, worked out from the rosters, the icons given and
/// the memory alone. Nothing here looks at the file system; ``ExportWriter/reconcile(_:available:snapshot:)`` turns
/// the ``ExportPlan`` into operations against the tree.
extension ExportWriter {
    /// What `rosters` call for: each roster's documents and the files rendered beside them (unsafe names and
    /// documents another roster exports dropped with an error), the index's diagnostics, and, with `reusing`, the
    /// host files and icons (`known` and every icon the rosters reference, with their bytes from `fetched`). With
    /// `reusing`, a roster whose inputs are the ones the last pass rendered (`memory`) is not planned for rendering
    /// but left as an ``ExportPlan/Candidate``; without, the plan is of `rosters` only: the unchanged rosters whose
    /// files were changed on disk.
    func plan(
        _ rosters: [ExportRoster], known: Set<String> = [], fetched: [String: Data] = [:], memory: ExportMemory,
        reusing: Bool = true
    ) -> ExportPlan {
        let remembered = memory.root == root ? memory.rendered : [:]
        var plan = ExportPlan()
        /// Every path a roster before claimed (documents, the files beside them, a candidate's documents).
        var taken = Set<String>()
        for roster in rosters {
            add(roster, remembered: remembered, reusing: reusing, taken: &taken, into: &plan)
        }
        guard reusing else { return plan }
        plan.hostFiles = hostFiles(rosters)
        plan.icons = Self.referencedIcons(rosters).union(known.filter(IconName.isIconPath)).sorted().map {
            ExportPlan.Icon(path: $0, bytes: fetched[$0])
        }
        return plan
    }

    /// Adds `roster` to `plan`: an error when a name is unsafe, its diagnostic, and either a candidate or a rendering
    /// whose documents no roster before claimed.
    private func add(
        _ roster: ExportRoster, remembered: [String: ExportMemory.Rendered], reusing: Bool, taken: inout Set<String>,
        into plan: inout ExportPlan
    ) {
        let names = [roster.host, roster.storefront.code] + (roster.language.map { [$0] } ?? [])
        if let unsafe = names.first(where: { !ExportManifest.isSafeComponent(Substring($0)) }) {
            plan.errors.append(
                ExportError(
                    .invalidDocument, path: path(names.joined(separator: "/")),
                    "cannot export host \(roster.host) in \(roster.storefront.code): '\(unsafe)' is not a safe "
                        + "file name (letters, digits, '.', '_', '-', starting with a letter or digit)"))
            return
        }
        if let error = roster.error {
            plan.diagnostics.append(
                ExportDiagnostic(
                    host: roster.host, storefront: roster.storefront, language: roster.language, state: roster.state,
                    error: error))
        }
        let key = names.joined(separator: "/")
        let paths = Platform.allCases.flatMap { platform in roster.paths(for: platform).map { (platform, $0) } }
        if reusing, let memo = unchangedInputs(roster, key: key, paths: paths.map(\.1), remembered: remembered),
            paths.allSatisfy({ !taken.contains($0.1) })
        {
            // Inputs as the last pass rendered them: nothing to render, its files checked after the changed rosters'
            // are published.
            taken.formUnion(paths.map(\.1))
            let entries = paths.map { platform, relative in
                roster.indexEntry(at: relative, platform: platform, revision: memo.files[relative]?.revision)
            }
            plan.candidates.append(ExportPlan.Candidate(roster: roster, memo: memo, entries: entries))
            plan.reused[key] = memo
            plan.reusedIcons.formUnion(memo.icons)
            return
        }
        switch roster.content {
        case .current, .latest, .deferred: plan.renderedCount += 1
        case .keepLastGood, .absent: break
        }
        var rendering = ExportPlan.Rendering(roster: roster, key: key)
        for (platform, relative) in paths {
            guard !taken.contains(relative) else {
                plan.errors.append(
                    ExportError(
                        .invalidDocument, path: path(relative),
                        "two rosters export the same document \(path(relative)); only the first is written "
                            + "(list each host, storefront and language once)"))
                continue
            }
            if case .absent = roster.content { continue }
            let stem = relative.hasSuffix(".json") ? String(relative.dropLast(".json".count)) : relative
            let beside = renderers.map { stem + $0.suffix }
            taken.insert(relative)
            taken.formUnion(beside)
            rendering.documents.append(ExportPlan.Document(platform: platform, path: relative, beside: beside))
        }
        plan.rendering.append(rendering)
    }

    /// The settings that shape every rendered file, compared with the ones a remembered roster was rendered with.
    var settingsKey: [String] {
        [gzip ? "gzip" : "plain", publicURL] + renderers.map(\.suffix)
    }

    /// What the last pass rendered for `roster` (`remembered`, by roster key), when its inputs are the ones it was
    /// rendered from: the roster's fingerprint and the writer's settings are the same, and so are its document paths
    /// (a language that became the storefront's default adds one). Only for current content: a roster in a
    /// diagnostic keeps its files by reading them.
    private func unchangedInputs(
        _ roster: ExportRoster, key: String, paths: [String], remembered: [String: ExportMemory.Rendered]
    ) -> ExportMemory.Rendered? {
        switch roster.content {
        case .latest, .deferred: break
        case .current, .keepLastGood, .absent: return nil
        }
        guard let fingerprint = roster.fingerprint, let memo = remembered[key], memo.fingerprint == fingerprint,
            memo.settings == settingsKey, !memo.files.isEmpty
        else { return nil }
        // Each document (`paths`) has one file of each renderer beside it, so equal counts and every path known mean
        // the same files.
        guard memo.files.count == paths.count * (1 + renderers.count), paths.allSatisfy({ memo.files[$0] != nil })
        else { return nil }
        return memo
    }

    /// The files ``hostRenderers`` render once per host, for every host with a safe name, in the order the hosts
    /// first appear.
    private func hostFiles(_ rosters: [ExportRoster]) -> [ExportPlan.HostFile] {
        guard !hostRenderers.isEmpty else { return [] }
        var hosts: [String] = []
        var byHost: [String: [ExportRoster]] = [:]
        for roster in rosters where ExportManifest.isSafeComponent(Substring(roster.host)) {
            if byHost[roster.host] == nil { hosts.append(roster.host) }
            byHost[roster.host, default: []].append(roster)
        }
        return hosts.flatMap { host in
            hostRenderers.map { renderer in
                ExportPlan.HostFile(path: "\(host)/\(renderer.name)", renderer: renderer, rosters: byHost[host] ?? [])
            }
        }
    }
}
