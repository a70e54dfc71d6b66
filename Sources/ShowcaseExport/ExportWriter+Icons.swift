import FoundationEssentials
import ShowcaseCore

/// Mirrored icons (SPEC §16) in an export pass: `v1/icons/<digest>.<ext>` files written by the same rules as the
/// documents (listed in the manifest before they first exist, staged exclusively, renamed into place, foreign files
/// left alone), and documents that reference only icons that exist.
///
/// Content-addressed names never change meaning, so a listed icon that is still a regular file is trusted without
/// reading it; only icons new to the tree are written. An icon no document references any more (a kept document
/// of a roster in a diagnostic counts, by the paths in its bytes) leaves the wanted set, and the pass removes it
/// like any other file it no longer needs.
extension ExportWriter {
    /// What a pass does with the icons its rosters reference.
    struct IconPlan {
        /// Listed in the manifest and a regular file there: kept as it is.
        var present: Set<String> = []
        /// Fetched and not yet in the tree: written before the documents that reference them.
        var operations = ExportOperations()
        /// Referenced but neither present nor given (removed by someone, or foreign at its name): the documents
        /// leave them out, and the report lists them so the caller fetches them again.
        var missing: Set<String> = []

        /// Icons the documents may reference: present, or about to be written (and not failed).
        var available: Set<String> { present.union(operations.files.filter { !$0.failed }.map(\.path)) }
    }

    /// Every icon path `rosters` reference (only well-formed icon paths: nothing else can be named so), in their
    /// documents or on their site pages (which show the host app too); a deferred roster's apps are not built for
    /// this, its icons are among the caller's `known` ones.
    static func referencedIcons(_ rosters: [ExportRoster]) -> Set<String> {
        var paths = Set<String>()
        for roster in rosters {
            switch roster.content {
            case .current(_, _, let apps), .latest(let apps, _):
                for app in (roster.siteApps?(apps) ?? apps).values.joined() {
                    for path in app.icons.values where IconName.isIconPath(path) { paths.insert(path) }
                }
            case .deferred, .keepLastGood, .absent: break
            }
        }
        return paths
    }

    /// The plan's icons against the tree: present (listed, and a file there), to write (given, and nothing foreign
    /// at their path) or missing.
    func reconcile(_ icons: [ExportPlan.Icon], snapshot: inout ExportSnapshot) -> IconPlan {
        var plan = IconPlan()
        var candidates: [PlannedFile] = []
        for icon in icons {
            if snapshot.previous.paths.contains(icon.path), snapshot.files.identity(of: icon.path) != nil {
                plan.present.insert(icon.path)
            } else if let bytes = icon.bytes {
                candidates.append(
                    PlannedFile(path: icon.path, source: bytes, digest: ContentDigest(bytes), isGzip: false))
            } else {
                plan.missing.insert(icon.path)
            }
        }
        plan.operations = operations(for: candidates, snapshot: &snapshot)
        plan.missing.formUnion(Set(candidates.map(\.path)).subtracting(plan.operations.paths))
        return plan
    }

    /// The icon paths in the documents kept byte for byte (rosters in a diagnostic): they stay wanted while a kept
    /// document lists them.
    static func iconsInKeptDocuments(_ rosters: [ExportRoster], planned: [PlannedFile]) -> Set<String> {
        var keptPaths = Set<String>()
        for roster in rosters {
            guard case .keepLastGood = roster.content else { continue }
            for platform in Platform.allCases { keptPaths.formUnion(roster.paths(for: platform)) }
        }
        guard !keptPaths.isEmpty else { return [] }
        var icons = Set<String>()
        for file in planned where !file.isGzip && keptPaths.contains(file.path) {
            icons.formUnion(iconPaths(in: file.source))
        }
        return icons
    }

    /// Every `icons/<16 hex>.<ext>` that appears in `bytes` (a document's JSON).
    static func iconPaths(in bytes: Data) -> Set<String> {
        let needle = Array("\"icons/".utf8)
        let text = [UInt8](bytes)
        var found = Set<String>()
        var index = 0
        while index + needle.count + 17 < text.count {
            guard text[index] == needle[0], text[index..<(index + needle.count)].elementsEqual(needle) else {
                index += 1
                continue
            }
            let start = index + 1
            var end = start
            while end < text.count, end - start < 40, text[end] != UInt8(ascii: "\"") { end += 1 }
            let candidate = String(decoding: text[start..<end], as: UTF8.self)
            if IconName.isIconPath(candidate) { found.insert(candidate) }
            index = end
        }
        return found
    }
}

extension ExportRoster {
    /// The roster with every app's icons limited to `available` (an icon not in the tree is left out of the
    /// documents rather than linked broken); a deferred roster is limited when it is built.
    func keepingIcons(in available: Set<String>) -> ExportRoster {
        var copy = self
        @Sendable func limit(_ apps: [Platform: [ExportedApp]]) -> [Platform: [ExportedApp]] {
            apps.mapValues { list in
                list.map { app in
                    var app = app
                    app.icons = app.icons.filter { available.contains($0.value) }
                    return app
                }
            }
        }
        switch content {
        case .current(let revision, let revisedAt, let apps):
            copy.content = .current(revision: revision, revisedAt: revisedAt, apps: limit(apps))
        case .latest(let apps, let now): copy.content = .latest(apps: limit(apps), now: now)
        case .deferred(let now, let apps): copy.content = .deferred(now: now, apps: { limit(apps()) })
        case .keepLastGood, .absent: break
        }
        if let site = siteApps { copy.siteApps = { @Sendable apps in limit(site(apps)) } }
        return copy
    }
}
