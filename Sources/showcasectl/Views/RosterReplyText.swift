import ShowcaseAPI

/// The human form of a roster (`roster`, and each reply of `watch`): a header line with storefront, state and
/// age, then the table.
enum RosterReplyText {
    /// The header fields a `Get` and a `Watch` reply have in common, or not.
    private struct Header {
        var storefront: String
        var state: RosterState
        var fetchedAt: String?
        var revision: Int?
        var host: String?
        var apps: Int
    }

    /// A `Roster.Get` reply.
    static func lines(_ reply: RosterGetReply, time: RelativeTime, console: Console) -> [String] {
        let header = Header(
            storefront: reply.storefront, state: reply.state, fetchedAt: reply.fetchedAt, host: reply.host,
            apps: reply.apps.count)
        return lines(header, reply.apps, time: time, console: console)
    }

    /// A `Roster.Watch` reply.
    static func lines(_ reply: RosterWatchReply, time: RelativeTime, console: Console) -> [String] {
        let header = Header(
            storefront: reply.storefront, state: reply.state, revision: reply.revision, apps: reply.apps.count)
        return lines(header, reply.apps, time: time, console: console)
    }

    /// "de · fresh · fetched 3 h ago · 4 apps", the state coloured on a terminal.
    private static func header(_ header: Header, time: RelativeTime, console: Console) -> String {
        var parts = [header.storefront, console.paint(header.state.rawValue, stateStyle(header.state))]
        if let revision = header.revision { parts.insert("revision \(revision)", at: 1) }
        if let fetchedAt = header.fetchedAt {
            parts.append("fetched " + time.age(fetchedAt))
        } else if header.state == .warming {
            parts.append("not fetched yet")
        }
        parts.append(header.apps == 1 ? "1 app" : "\(header.apps) apps")
        if let host = header.host { parts.append("host " + host) }
        return parts.joined(separator: " · ")
    }

    /// The header, then the table, or a sentence when there is nothing to tabulate.
    private static func lines(_ header: Header, _ apps: [RosterApp], time: RelativeTime, console: Console)
        -> [String]
    {
        var lines = [Self.header(header, time: time, console: console)]
        if apps.isEmpty {
            lines.append(
                header.state == .warming
                    ? "the roster is being fetched for the first time; an empty list here does not mean no apps"
                    : "no apps match (an empty roster is a normal answer for this storefront and filter)")
            return lines
        }
        var table = TextTable([
            .init(title: "NAME"), .init(title: "PRICE"), .init(title: "GENRE"), .init(title: "PLATFORM"),
            .init(title: "FLOOR"), .init(title: "TAGLINE"), .init(title: "ID", alignment: .right),
        ])
        for app in apps {
            table.append([
                app.name, app.formattedPrice ?? "-", app.genre, app.platform, app.minimumOsVersion,
                app.tagline ?? "-", String(app.id),
            ])
        }
        lines += table.render(console: console, maxWidth: console.width, shrinking: 5)
        return lines
    }

    /// Green for fresh, yellow for stale, cyan for warming, red for anything else (an error state).
    static func stateStyle(_ state: RosterState) -> Console.Style {
        switch state {
        case .fresh: return .green
        case .stale: return .yellow
        case .warming: return .cyan
        default: return .red
        }
    }
}
