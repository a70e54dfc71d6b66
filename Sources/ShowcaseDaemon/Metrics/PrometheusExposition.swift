import FoundationEssentials
import ShowcaseCore

/// Renders a ``MetricsSnapshot`` in the Prometheus text exposition format, version 0.0.4: what
/// `Admin.Metrics` answers and what node_exporter's textfile collector reads from `metrics.textfile`.
///
/// Every family has `# HELP` and `# TYPE`; counters end in `_total`; label values are escaped; samples are
/// sorted (storefronts by code and language, methods by name) so two renders of the same snapshot are
/// byte-identical and a textfile rewrite only changes what changed.
public enum PrometheusExposition {
    /// The `Content-Type` a scrape endpoint would send with ``render(_:)``'s text.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition text of `snapshot`, ending in a newline.
    public static func render(_ snapshot: MetricsSnapshot) -> String {
        var text = ""
        func family(_ name: String, _ type: String, _ help: String, _ samples: [(labels: Labels, value: Int)]) {
            text += "# HELP \(name) \(escapeHelp(help))\n# TYPE \(name) \(type)\n"
            for sample in samples {
                text += name + render(sample.labels) + " \(sample.value)\n"
            }
        }

        family(
            "showcase_build_info", "gauge", "The running showcased's version, as a label; the value is always 1.",
            [([("version", snapshot.version)], 1)])
        family(
            "showcase_config_generation", "gauge",
            "Configuration generation being served: 1 at start, one more per accepted reload.",
            [([], snapshot.configGeneration)])
        family(
            "showcase_upstream_requests_total", "counter", "Requests sent to the lookup API since the daemon started.",
            [([], snapshot.upstreamRequests)])
        family(
            "showcase_upstream_failures_total", "counter",
            "Lookup API requests that failed (transport, HTTP status or unusable body), throttled ones included.",
            [([], snapshot.upstreamFailures)])
        family(
            "showcase_upstream_throttled_total", "counter", "Lookup API requests answered with HTTP 403 or 429.",
            [([], snapshot.upstreamThrottled)])

        let rosters = snapshot.storefronts.sorted {
            ($0.storefront, $0.language ?? "") < ($1.storefront, $1.language ?? "")
        }
        family(
            "showcase_roster_apps", "gauge",
            "Apps the roster serves for the default host and platform, without an OS filter (as Status counts them).",
            rosters.map { (rosterLabels($0), $0.apps) })
        family(
            "showcase_roster_age_seconds", "gauge",
            "Seconds since the roster was fetched; absent for a roster never fetched.",
            rosters.compactMap { roster in roster.ageSeconds.map { (rosterLabels(roster), $0) } })
        family(
            "showcase_roster_state", "gauge",
            "1 for the roster's current state (fresh, stale, warming, unavailable, failed), 0 for the others.",
            rosters.flatMap { roster in
                ServedState.allCases.map { state in
                    (rosterLabels(roster) + [("state", state.rawValue)], roster.state == state.wire ? 1 : 0)
                }
            })
        family(
            "showcase_varlink_calls_total", "counter", "Varlink calls answered since the daemon started, by method.",
            snapshot.varlinkCalls.sorted { $0.key < $1.key }.map { ([("method", $0.key)], $0.value) })
        let icons = snapshot.iconRequests
        family(
            "showcase_icon_requests_total", "counter",
            "Icon downloads for the export since the daemon started, by result (ok, refused, failed); not lookup "
                + "API requests.",
            [
                ([("result", "ok")], icons.ok), ([("result", "refused")], icons.refused),
                ([("result", "failed")], icons.failed),
            ])
        family(
            "showcase_icon_failures_total", "counter",
            "Icon downloads refused or failed since the daemon started, by why (every reason listed, 0 included).",
            IconFailureReason.allCases.sorted().map { ([("reason", $0.rawValue)], icons.reasons[$0] ?? 0) })
        return text
    }

    /// A sample's label pairs, in the order written.
    typealias Labels = [(name: String, value: String)]

    static func rosterLabels(_ roster: StorefrontMetrics) -> Labels {
        [("storefront", roster.storefront)] + (roster.language.map { [("language", $0)] } ?? [])
    }

    static func render(_ labels: Labels) -> String {
        guard !labels.isEmpty else { return "" }
        return "{" + labels.map { "\($0.name)=\"\(escapeLabelValue($0.value))\"" }.joined(separator: ",") + "}"
    }

    /// A label value as the format requires: backslash, double quote and line feed escaped.
    public static func escapeLabelValue(_ value: String) -> String {
        var escaped = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// `# HELP` text as the format requires: backslash and line feed escaped (quotes stay as they are).
    static func escapeHelp(_ help: String) -> String {
        help.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
    }
}
