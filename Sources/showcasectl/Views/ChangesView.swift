import ShowcaseAPI

/// The human form of `showcasectl changes`: a header with the storefront (and the roster's language) and the
/// latest serial, then one row per change, newest first.
enum ChangesView {
    static func lines(_ reply: RosterChangesReply, since: Int?, time: RelativeTime, console: Console) -> [String] {
        let count = reply.changes.count == 1 ? "1 change" : "\(reply.changes.count) changes"
        let roster = reply.storefront + (reply.language.map { " (\($0))" } ?? "")
        var lines = [[roster, "latest \(reply.latest)", count, "host " + reply.host].joined(separator: " · ")]
        if reply.changes.isEmpty {
            lines.append(
                reply.latest == 0
                    ? "nothing recorded yet: the first roster is the baseline, changes appear from the next refresh on"
                    : "nothing new since serial \(since ?? reply.latest)")
            if let others = otherLanguages(reply) { lines.append(others) }
            return lines
        }
        var table = TextTable([
            .init(title: "SERIAL", alignment: .right), .init(title: "DETECTED"), .init(title: "KIND"),
            .init(title: "NAME"), .init(title: "PLATFORM"), .init(title: "DETAIL"),
            .init(title: "ID", alignment: .right),
        ])
        for change in reply.changes {
            table.append([
                String(change.serial), time.age(change.at), change.kind, change.name, change.platform,
                detail(change), String(change.id),
            ])
        }
        lines += table.render(console: console, maxWidth: console.width, shrinking: 5)
        return lines
    }

    /// For an empty page of a storefront with languages, the other languages whose rosters have entries and how
    /// to see them: "the fr roster has 3 changes (latest 3): add --locale fr"; nil when none has.
    static func otherLanguages(_ reply: RosterChangesReply) -> String? {
        let others = reply.languages.filter { $0.language != reply.language && $0.latest > 0 }
        guard let first = others.first else { return nil }
        let named = others.map { "\($0.language) (latest \($0.latest))" }.joined(separator: ", ")
        let what = others.count == 1 ? "the \(first.language) roster has" : "the rosters in \(named) have"
        let detail = others.count == 1 ? " (latest \(first.latest))" : ""
        return "\(what) changes\(detail): add --locale \(first.language)"
    }

    /// What changed, in a few words: "version 2.1", "$0.99 → $1.99".
    static func detail(_ change: RosterChange) -> String {
        switch change.kind {
        case RosterChange.Kind.updated: "version " + (change.version ?? "?")
        case RosterChange.Kind.price:
            (change.previousFormattedPrice ?? "?") + " → " + (change.formattedPrice ?? "?")
        case RosterChange.Kind.added:
            [change.version.map { "version " + $0 }, change.formattedPrice].compactMap { $0 }.joined(separator: ", ")
        default: "-"
        }
    }
}
