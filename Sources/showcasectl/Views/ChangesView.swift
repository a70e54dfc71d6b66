import ShowcaseAPI

/// The human form of `showcasectl changes`: a header with the storefront and the latest serial, then one row per
/// change, newest first.
enum ChangesView {
    static func lines(_ reply: RosterChangesReply, since: Int?, time: RelativeTime, console: Console) -> [String] {
        let count = reply.changes.count == 1 ? "1 change" : "\(reply.changes.count) changes"
        var lines = [
            [reply.storefront, "latest \(reply.latest)", count, "host " + reply.host].joined(separator: " · ")
        ]
        if reply.changes.isEmpty {
            lines.append(
                reply.latest == 0
                    ? "nothing recorded yet: the first roster is the baseline, changes appear from the next refresh on"
                    : "nothing new since serial \(since ?? reply.latest)")
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
