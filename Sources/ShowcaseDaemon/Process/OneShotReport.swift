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
        /// The software rows upstream sent for the host's developer in this edition, every platform (rows dropped
        /// as unusable aside): the number the log's `refreshed` line gives.
        var rows = 0
        /// The apps `Roster.Get` lists by default: on ``platform``, the host itself and exclusions left out.
        var apps: Int
        /// `default_platform`: the platform of ``apps``.
        var platform = Platform.ios
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
    /// The icons the export's documents reference and what became of them; nil without `export.icons`. Never a
    /// part of the exit status: an icon refused or not fetched leaves its apps with `iconUrl` only.
    var icons: IconTally?
    /// Whether the run stopped waiting at `--max-wait`.
    var stoppedWaiting: Bool

    /// The process exit status these facts give.
    var exitStatus: Int32 {
        if rosters.contains(where: { $0.state == .failed }) { return Daemon.ExitCode.diagnostic }
        if let export, !export.succeeded { return Daemon.ExitCode.exportFailed }
        if rosters.contains(where: { $0.state != .fresh }) { return Daemon.ExitCode.temporaryFailure }
        return Daemon.ExitCode.success
    }

    /// The human report: `com.quietharbor.Knotbook us: fresh, 17 rows, 11 apps on iOS, fetched
    /// 2026-12-01T21:50:03Z`, one line per roster, then `icons: 32 of 32 mirrored` with `export.icons`; upstream
    /// text in an error is escaped like every log line.
    var lines: [String] {
        let rosterLines = rosters.map { roster in
            var parts = [roster.state.rawValue]
            if roster.state == .fresh || roster.state == .stale {
                parts.append("\(roster.rows) \(roster.rows == 1 ? "row" : "rows")")
                parts.append("\(roster.apps) \(roster.apps == 1 ? "app" : "apps") on \(Self.name(of: roster.platform))")
            }
            if let fetchedAt = roster.fetchedAt { parts.append("fetched \(RFC3339.seconds(fetchedAt))") }
            if roster.state != .fresh, let error = roster.error { parts.append(error) }
            if roster.state == .warming, stoppedWaiting { parts.append("not fetched: --max-wait reached") }
            return "\(roster.host) \(roster.edition): \(parts.joined(separator: ", "))".escapingControlCharacters()
        }
        return rosterLines + (icons.map { [$0.line] } ?? [])
    }

    /// How the report names a platform.
    static func name(of platform: Platform) -> String {
        switch platform {
        case .ios: "iOS"
        case .macos: "macOS"
        }
    }

    /// The same facts as one JSON document: `rosters` (host, storefront, language, state, rows, apps, platform,
    /// fetchedAt, error), `requests`, `stoppedWaiting`, `export` (directory, written, unchanged, removed, errors),
    /// `icons` (referenced, mirrored, refused, failed; only with `export.icons`) and `exitStatus`.
    var json: Data {
        let document = JSONReport(
            rosters: rosters.map { roster in
                JSONReport.Roster(
                    host: roster.host, storefront: roster.edition.storefront.code,
                    language: roster.edition.language?.code, state: roster.state.rawValue, rows: roster.rows,
                    apps: roster.apps, platform: roster.platform.rawValue,
                    fetchedAt: roster.fetchedAt.map(RFC3339.seconds),
                    error: roster.state != .fresh ? roster.error : nil)
            },
            requests: requests, stoppedWaiting: stoppedWaiting, exitStatus: Int(exitStatus),
            export: export.map { export in
                JSONReport.Export(
                    directory: export.directory, written: export.written, unchanged: export.unchanged,
                    removed: export.removed, errors: export.errors.map(\.message))
            },
            icons: icons.map {
                JSONReport.Icons(
                    referenced: $0.referenced, mirrored: $0.mirrored, refused: $0.refused, failed: $0.failed)
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
            var rows: Int
            var apps: Int
            var platform: String
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

        struct Icons: Encodable {
            var referenced: Int
            var mirrored: Int
            var refused: Int
            var failed: Int
        }

        var rosters: [Roster]
        var requests: Int
        var stoppedWaiting: Bool
        var exitStatus: Int
        var export: Export?
        var icons: Icons?
    }
}
