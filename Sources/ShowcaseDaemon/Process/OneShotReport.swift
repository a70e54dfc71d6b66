import FoundationEssentials
import ShowcaseCore
import ShowcaseExport

/// What `showcased --once` prints and how it exits (SPEC §17): one entry per host and roster after the run,
/// shown as a line each on stdout or as one JSON document with the same facts.
///
/// The exit status is decided here and only here: a diagnostic (``ServedState/failed``) is 1 and wins over
/// everything, because a changed or broken upstream must fail a site's build loudly; an export that could not be
/// written is 73; any roster left stale, unavailable or never fetched (a transport failure, `--max-wait`) is 75,
/// its last good files staying where they are; 0 only when every roster is fresh.
struct OneShotReport: Sendable {
    /// One host's roster in one edition after the run.
    struct Roster: Sendable, Equatable {
        /// The host's bundle id.
        var host: String
        /// The storefront, and language when configured with several.
        var edition: StorefrontEdition
        /// The state `Roster.Get` answers now.
        var state: ServedState
        /// The apps `Roster.Get` lists by default.
        var apps: Int
        /// When the roster served was fetched; nil without one.
        var fetchedAt: Date?
        /// Why it is not fresh, when a refresh failed.
        var error: String?
    }

    /// Every configured host in every configured edition, in the configuration's order.
    var rosters: [Roster]
    /// Upstream requests the run made.
    var requests: Int
    /// The export pass, nil without `export:`.
    var export: ExportReport?
    /// Whether the run stopped waiting at `--max-wait`.
    var stoppedWaiting: Bool

    /// The process exit status these facts give.
    var exitStatus: Int32 {
        if rosters.contains(where: { $0.state == .failed }) { return Daemon.ExitCode.diagnostic }
        if let export, !export.succeeded { return Daemon.ExitCode.exportFailed }
        if rosters.contains(where: { $0.state != .fresh }) { return Daemon.ExitCode.temporaryFailure }
        return Daemon.ExitCode.success
    }

    /// The human report: `com.quietharbor.Knotbook us: fresh, 7 apps, fetched 2026-12-01T21:50:03Z`, one line
    /// per roster; upstream text in an error is escaped like every log line.
    var lines: [String] {
        rosters.map { roster in
            var parts = [roster.state.rawValue]
            if roster.state == .fresh || roster.state == .stale { parts.append("\(roster.apps) apps") }
            if let fetchedAt = roster.fetchedAt { parts.append("fetched \(RFC3339.seconds(fetchedAt))") }
            if roster.state != .fresh, let error = roster.error { parts.append(error) }
            if roster.state == .warming, stoppedWaiting { parts.append("not fetched: --max-wait reached") }
            return "\(roster.host) \(roster.edition): \(parts.joined(separator: ", "))".escapingControlCharacters()
        }
    }

    /// The same facts as one JSON document: `rosters` (host, storefront, language, state, apps, fetchedAt,
    /// error), `requests`, `stoppedWaiting`, `export` (directory, written, unchanged, removed, errors) and
    /// `exitStatus`.
    var json: Data {
        let document = JSONReport(
            rosters: rosters.map { roster in
                JSONReport.Roster(
                    host: roster.host, storefront: roster.edition.storefront.code,
                    language: roster.edition.language?.code, state: roster.state.rawValue, apps: roster.apps,
                    fetchedAt: roster.fetchedAt.map(RFC3339.seconds),
                    error: roster.state != .fresh ? roster.error : nil)
            },
            requests: requests, stoppedWaiting: stoppedWaiting, exitStatus: Int(exitStatus),
            export: export.map { export in
                JSONReport.Export(
                    directory: export.directory, written: export.written, unchanged: export.unchanged,
                    removed: export.removed, errors: export.errors.map(\.message))
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(document)) ?? Data("{}".utf8)
    }

    /// The `--json` document's shape; absent optionals are left out, as the keys of a facts-only document.
    private struct JSONReport: Encodable {
        struct Roster: Encodable {
            var host: String
            var storefront: String
            var language: String?
            var state: String
            var apps: Int
            var fetchedAt: String?
            var error: String?
        }

        struct Export: Encodable {
            var directory: String
            var written: Int
            var unchanged: Int
            var removed: Int
            var errors: [String]
        }

        var rosters: [Roster]
        var requests: Int
        var stoppedWaiting: Bool
        var exitStatus: Int
        var export: Export?
    }
}
