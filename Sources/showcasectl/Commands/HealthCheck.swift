import ShowcaseAPI

/// `showcasectl check`'s verdict on a `Roster.Health` reply, in the monitoring-plugin convention Nagios, Icinga
/// and Sensu share: one line `SHOWCASE OK|WARNING|CRITICAL|UNKNOWN - <summary> | <perfdata>` and exit 0/1/2/3.
///
/// Per warm storefront: fresh is OK; stale within `maxAge` (transport trouble, the cache still served) or warming
/// is WARNING; stale past `maxAge`, unavailable (nothing to serve) or failed (a diagnostic such as
/// MalformedResponse, which the cache must not hide) is CRITICAL; a reported problem (a change history set aside)
/// is WARNING. The worst decides. A state this
/// version does not know is UNKNOWN: a check must never call an answer it cannot read OK.
struct HealthCheck {
    /// The plugin states, with their exit statuses; ordered from best to worst.
    enum Outcome: Int32, Comparable {
        case ok = 0
        case warning = 1
        case critical = 2
        case unknown = 3

        /// The word after `SHOWCASE`.
        var label: String {
            switch self {
            case .ok: "OK"
            case .warning: "WARNING"
            case .critical: "CRITICAL"
            case .unknown: "UNKNOWN"
            }
        }

        static func < (lhs: Outcome, rhs: Outcome) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The states counted in the performance data, in order.
    static let states: [RosterState] = [.fresh, .stale, .warming, .unavailable, .failed]

    /// The worst storefront's outcome.
    let outcome: Outcome
    /// The whole plugin line.
    let line: String

    /// The verdict on `reply`, with stale rosters older than `maxAge` (default: twice `refresh.interval`)
    /// critical.
    init(_ reply: RosterHealthReply, maxAge: Duration?) {
        let interval = max(reply.refreshIntervalSeconds, 0)
        let limit = maxAge.map { Int($0.components.seconds) } ?? interval &* 2
        var outcome = Outcome.ok
        var problems: [String] = []
        var counts: [RosterState: Int] = [:]
        for storefront in reply.storefronts {
            counts[storefront.state, default: 0] += 1
            let age = storefront.ageSeconds
            let (verdict, note): (Outcome, String?) =
                switch storefront.state {
                case .fresh: (.ok, nil)
                case .stale:
                    (age ?? 0) > limit
                        ? (.critical, "stale for \(Self.span(age ?? 0)), past the max age of \(Self.span(limit))")
                        : (.warning, "stale for \(Self.span(age ?? 0))")
                case .warming: (.warning, "warming (never fetched yet)")
                case .unavailable, .failed:
                    (.critical, "\(storefront.state) (\(Self.shortName(storefront.error) ?? "no error named"))")
                default: (.unknown, "in state '\(storefront.state)', which this showcasectl does not know")
                }
            outcome = max(outcome, verdict)
            if let note { problems.append("\(storefront.code) \(note)") }
        }
        // A problem the daemon works around (a history set aside) wants a look, not a page in the night.
        for problem in reply.problems {
            outcome = max(outcome, .warning)
            let place = [problem.host, problem.storefront].compactMap { $0 }.joined(separator: " ")
            problems.append("\(problem.kind) problem" + (place.isEmpty ? "" : " (\(place))"))
        }
        let known: Set<HealthState> = [.ok, .degraded, .warming]
        if !known.contains(reply.state) {
            outcome = max(outcome, .unknown)
            problems.append("daemon state '\(reply.state)', which this showcasectl does not know")
        }

        let total = reply.storefronts.count
        var summary =
            total == 0
            ? "no storefront is kept warm"
            : "\(total) storefront\(total == 1 ? "" : "s"): "
                + Self.states.compactMap { state in counts[state].map { "\($0) \(state)" } }.joined(separator: ", ")
        if !problems.isEmpty { summary += "; " + problems.joined(separator: "; ") }
        let oldest = reply.storefronts.compactMap(\.ageSeconds).max()
        let perfdata =
            Self.states.map { "\($0)=\(counts[$0] ?? 0);;;0" }
            + ["oldest_age=\(oldest.map { "\($0)s" } ?? "U");\(interval);\(limit);0"]
        self.outcome = outcome
        line = "SHOWCASE \(outcome.label) - \(summary) | \(perfdata.joined(separator: " "))"
    }

    /// The line for a check that could not get an answer it can read.
    static func unknown(_ reason: String) -> String {
        "SHOWCASE \(Outcome.unknown.label) - \(reason.replacing("|", with: "/"))"
    }

    /// `MalformedResponse` of `io.showcase.Roster.MalformedResponse`.
    static func shortName(_ error: String?) -> String? {
        error.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
    }

    /// An age for a summary: `45s`, `12m`, `5h`, `3d` (whole units, rounded down).
    static func span(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "\(max(seconds, 0))s"
        case ..<3600: "\(seconds / 60)m"
        case ..<(48 * 3600): "\(seconds / 3600)h"
        default: "\(seconds / 86_400)d"
        }
    }
}
