import ShowcaseCore

/// What a site pass knows before rendering anything: the editions in configuration order, the developers of each
/// (in the order of `hosts`, one per artist), which app belongs to which, and in which editions each page exists —
/// the pages' alternates, switchers and sitemap entries, and which pages are wanted at all.
///
/// A roster whose ``ExportRoster/fingerprint`` is the one the last pass saw is known from ``SiteMemory`` without
/// building its apps; the others are built once here and kept for rendering. An edition with a roster that keeps its
/// last good files (in a diagnostic, unavailable, or warming after a start) is frozen — its pages stay as they are on
/// disk, and the pages listed for it in the manifest count as existing — when that roster showed apps when last seen
/// current, or with nothing known of it (a daemon that just started, a `--once` run) is warming or has its host app's
/// page listed in the manifest (the host has a page wherever its roster showed apps); a roster never seen with apps
/// (a host the storefront does not sell) shows nothing and freezes nothing.
struct SiteLayout {
    /// One developer of an edition: every roster of its artist there, in `hosts` order.
    struct Developer {
        /// The artist's id, or the host's bundle id when no app tells.
        var key: String
        /// The developer's name (`artistName`).
        var name: String
        /// Indices into ``rosters``.
        var rosters: [Int]
        /// Its apps' ids, iOS first then Mac, each once.
        var apps: [Int] = []
    }

    /// One edition: its developers and apps, or frozen.
    struct Edition {
        var edition: SiteEdition
        /// A roster of it is in a diagnostic or warming: its pages are kept as they are.
        var frozen: Bool
        var developers: [Developer] = []
        /// App id → index into ``developers``.
        var owner: [Int: Int] = [:]
    }

    /// Every configured roster, as given.
    let rosters: [ExportRoster]
    /// The editions, in configuration order.
    private(set) var editions: [Edition] = []
    /// What each current roster holds (nil for one that is not current).
    private(set) var facts: [SiteMemory.Facts?] = []
    /// The apps of the rosters built while laying out, by roster index.
    private(set) var built: [Int: [Platform: [ExportedApp]]] = [:]
    /// Each page kind → the indices of the editions it exists in, ascending.
    private(set) var existence: [SitePageKind: [Int]] = [:]

    /// The layout of `rosters`, with the facts `memory` remembers and the pages `listed` (the site manifest's paths)
    /// for frozen editions; `pages` is `export.site.pages`.
    init(rosters: [ExportRoster], memory: SiteMemory, listed: Set<String>, pages: [Int: SiteTexts]) {
        self.rosters = rosters
        var byEdition: [SiteEdition: Int] = [:]
        for (index, roster) in rosters.enumerated() {
            let edition = SiteEdition(
                storefront: roster.storefront, language: roster.language, isDefault: roster.isDefaultLanguage)
            let slot: Int
            if let known = byEdition[edition] {
                slot = known
            } else {
                slot = editions.count
                byEdition[edition] = slot
                editions.append(Edition(edition: edition, frozen: false))
            }
            facts.append(learn(index, memory: memory))
            if case .keepLastGood = roster.content {
                let known = memory.facts[Self.key(of: roster)]
                // Nothing remembered (a new process: `--once`, a restart): the host app's own page, listed in the
                // manifest, says the roster showed apps here when last current.
                let listedHost = roster.hostAppId.map {
                    listed.contains(SitePage(kind: .app($0), edition: edition).file)
                }
                if known.map({ !$0.ids.isEmpty }) ?? (roster.state == .warming || listedHost == true) {
                    editions[slot].frozen = true
                }
            }
            if let known = facts[index] { add(index, known, to: &editions[slot]) }
        }
        for slot in editions.indices {
            for kind in kinds(of: editions[slot], listed: listed, pages: pages) {
                existence[kind, default: []].append(slot)
            }
        }
    }

    /// What roster `index` holds: remembered when its fingerprint is the last pass's, else built now.
    private mutating func learn(_ index: Int, memory: SiteMemory) -> SiteMemory.Facts? {
        let roster = rosters[index]
        if let fingerprint = roster.fingerprint, let known = memory.facts[Self.key(of: roster)],
            known.fingerprint == fingerprint
        {
            return known
        }
        guard let apps = roster.currentApps else { return nil }
        built[index] = apps
        let all = Platform.allCases.flatMap { apps[$0] ?? [] }
        return SiteMemory.Facts(
            fingerprint: roster.fingerprint, artistId: all.first?.resolved.app.artistId,
            ids: Platform.allCases.flatMap { (apps[$0] ?? []).map(\.resolved.id) })
    }

    /// Adds roster `index` to its developer in `edition` (a new one for an artist not seen there yet).
    private func add(_ index: Int, _ facts: SiteMemory.Facts, to edition: inout Edition) {
        let roster = rosters[index]
        let key = facts.artistId.map { "artist:\($0)" } ?? "host:" + roster.host
        let slot: Int
        if let found = edition.developers.firstIndex(where: { $0.key == key }) {
            slot = found
        } else {
            slot = edition.developers.count
            edition.developers.append(Developer(key: key, name: roster.artistName ?? roster.host, rosters: []))
        }
        edition.developers[slot].rosters.append(index)
        if let name = roster.artistName, edition.developers[slot].name == edition.developers[slot].key {
            edition.developers[slot].name = name
        }
        for id in facts.ids where edition.owner[id] == nil {
            edition.owner[id] = slot
            edition.developers[slot].apps.append(id)
        }
    }

    /// The pages `edition` has: from its apps, or for a frozen one from what the manifest lists in its folder.
    private func kinds(of edition: Edition, listed: Set<String>, pages: [Int: SiteTexts]) -> [SitePageKind] {
        if edition.frozen {
            let prefix = edition.edition.folder + "/"
            return listed.compactMap { path in
                path.hasPrefix(prefix) ? SitePageKind(file: path.dropFirst(prefix.count)) : nil
            }
        }
        let ids = edition.developers.flatMap(\.apps)
        guard !ids.isEmpty else { return [] }
        var kinds: [SitePageKind] = [.developer]
        for id in ids {
            kinds.append(.app(id))
            if pages[id]?.support != nil { kinds.append(.support(id)) }
            if pages[id]?.privacy != nil { kinds.append(.privacy(id)) }
        }
        return kinds
    }

    /// The apps of roster `index`, built now if laying out did not need them.
    mutating func apps(of index: Int) -> [Platform: [ExportedApp]] {
        if let known = built[index] { return known }
        let apps = rosters[index].currentApps ?? [:]
        built[index] = apps
        return apps
    }

    /// The memory's key of a roster: host, storefront and language.
    static func key(of roster: ExportRoster) -> String {
        [roster.host, roster.storefront.code, roster.language ?? ""].joined(separator: "/")
    }
}

extension ExportRoster {
    /// The apps its site pages show when it is current (``Content-swift.enum/deferred(now:apps:)`` ones built now,
    /// with the host when ``siteApps`` adds it); nil for a roster in a diagnostic, warming or never fetched.
    var currentApps: [Platform: [ExportedApp]]? {
        let apps: [Platform: [ExportedApp]]
        switch content {
        case .current(_, _, let current), .latest(let current, _): apps = current
        case .deferred(_, let build): apps = build()
        case .keepLastGood, .absent: return nil
        }
        return siteApps.map { $0(apps) } ?? apps
    }
}
