/// The human form of a roster: a header line with storefront, state and age, then the table.
enum RosterView {
    /// "de · fresh · fetched 3 h ago · 4 apps", the state coloured on a terminal.
    static func header(_ reply: RosterReply, time: RelativeTime, console: Console) -> String {
        var parts = [reply.storefront, console.paint(reply.state, stateStyle(reply.state))]
        if let revision = reply.revision { parts.insert("revision \(revision)", at: 1) }
        if let fetchedAt = reply.fetchedAt {
            parts.append("fetched " + time.age(fetchedAt))
        } else if reply.state == "warming" {
            parts.append("not fetched yet")
        }
        parts.append(reply.apps.count == 1 ? "1 app" : "\(reply.apps.count) apps")
        if let host = reply.host { parts.append("host " + host) }
        return parts.joined(separator: " · ")
    }

    /// The header, then the table, or a sentence when there is nothing to tabulate.
    static func lines(_ reply: RosterReply, time: RelativeTime, console: Console) -> [String] {
        var lines = [header(reply, time: time, console: console)]
        if reply.apps.isEmpty {
            lines.append(
                reply.state == "warming"
                    ? "the roster is being fetched for the first time; an empty list here does not mean no apps"
                    : "no apps match (an empty roster is a normal answer for this storefront and filter)")
            return lines
        }
        var table = TextTable([
            .init(title: "NAME"), .init(title: "PRICE"), .init(title: "GENRE"), .init(title: "PLATFORM"),
            .init(title: "FLOOR"), .init(title: "TAGLINE"), .init(title: "ID", alignment: .right),
        ])
        for app in reply.apps {
            table.append([
                app.name, app.formattedPrice ?? "-", app.genre ?? "-", app.platform ?? "-",
                app.minimumOsVersion ?? "-", app.tagline ?? "-", String(app.id),
            ])
        }
        lines += table.render(console: console, maxWidth: console.width, shrinking: 5)
        return lines
    }

    /// Green for fresh, yellow for stale, cyan for warming, red for anything else (an error state).
    static func stateStyle(_ state: String) -> Console.Style {
        switch state {
        case "fresh": return .green
        case "stale": return .yellow
        case "warming": return .cyan
        default: return .red
        }
    }
}
