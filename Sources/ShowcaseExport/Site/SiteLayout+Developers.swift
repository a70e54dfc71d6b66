import ShowcaseCore

extension SiteLayout {
    /// Developer `developer` of edition `slot` with its apps (those it owns there, iOS first) and history, built
    /// from its rosters' apps.
    mutating func developer(_ developer: Int, in slot: Int) -> SiteRenderer.Developer {
        let found = editions[slot].developers[developer]
        var shown = SiteRenderer.Developer(name: found.name, host: rosters[found.rosters[0]].host)
        var seen = Set<Int>()
        for index in found.rosters {
            let apps = apps(of: index)
            for app in apps[.ios] ?? [] where editions[slot].owner[app.resolved.id] == developer {
                if seen.insert(app.resolved.id).inserted { shown.ios.append(app) }
            }
            for app in apps[.macos] ?? [] where editions[slot].owner[app.resolved.id] == developer {
                if seen.insert(app.resolved.id).inserted { shown.mac.append(app) }
            }
            shown.changes += rosters[index].changes
            shown.releases.merge(rosters[index].releases) { first, _ in first }
        }
        return shown
    }

    /// The fingerprints a page of `kind` in edition `slot` is rendered from: every roster of the developers with
    /// apps there for the developer page, the owner's rosters for an app's pages; nil when one is unknown (the page
    /// is then always rendered).
    func fingerprints(of kind: SitePageKind, in slot: Int) -> [[Int]]? {
        let edition = editions[slot]
        let developers: [Developer]
        switch kind {
        case .developer: developers = edition.developers.filter { !$0.apps.isEmpty }
        case .app(let id), .support(let id), .privacy(let id):
            guard let owner = edition.owner[id] else { return nil }
            developers = [edition.developers[owner]]
        }
        var prints: [[Int]] = []
        for index in developers.flatMap(\.rosters) {
            guard let fingerprint = facts[index]?.fingerprint else { return nil }
            prints.append(fingerprint)
        }
        return prints
    }
}
