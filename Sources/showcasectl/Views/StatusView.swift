import ShowcaseAPI

/// The human form of `showcasectl status`: a summary, host warnings and problems, then one line per storefront (its cached app
/// count followed by rows the last fetch dropped and `cut at 200` when the lookup's ceiling was reached).
enum StatusView {
    static func lines(_ status: AdminStatusReply, time: RelativeTime, console: Console) -> [String] {
        var lines = [
            "showcased \(status.version) · config \(status.configPath) (generation \(status.configGeneration))",
            "upstream: \(status.upstream.requests) \(status.upstream.requests == 1 ? "request" : "requests"), "
                + "\(status.upstream.failures) failed, "
                + "\(status.upstream.throttled) throttled",
        ]
        if let error = status.lastReloadError {
            lines.append(
                console.paint("last reload rejected: \(error)", .red) + " (the previous configuration is running)")
        }
        if let export = status.export {
            let when = export.exportedAt == nil ? "no pass yet" : "last pass \(time.age(export.exportedAt))"
            if let error = export.lastError {
                let count = export.errors == 1 ? "1 error" : "\(export.errors) errors"
                lines.append("export: \(export.directory) (\(when), " + console.paint("\(count): \(error)", .red) + ")")
            } else {
                lines.append("export: \(export.directory) (\(when))")
            }
        }
        for host in status.hosts {
            guard let warning = host.warning else { continue }
            lines.append(console.paint("host \(host.bundleId): \(warning)", .yellow))
        }
        for problem in status.problems {
            lines.append(console.paint("\(problem.kind) problem: \(problem.detail)", .yellow))
        }
        let states = Dictionary(grouping: status.storefronts, by: \.state.rawValue).mapValues(\.count)
        let summary = states.keys.sorted().map { "\(states[$0]!) \($0)" }.joined(separator: ", ")
        lines.append("storefronts: \(status.storefronts.count)" + (summary.isEmpty ? "" : " (\(summary))"))
        guard !status.storefronts.isEmpty else { return lines }
        lines.append("")
        var table = TextTable([
            .init(title: "STOREFRONT"), .init(title: "STATE"), .init(title: "FETCHED"), .init(title: "NEXT REFRESH"),
            .init(title: "CACHED APPS", alignment: .right), .init(title: "LAST ERROR"),
        ])
        for storefront in status.storefronts {
            table.append([
                storefront.code + (storefront.language.map { "/" + $0 } ?? ""), storefront.state.rawValue,
                time.age(storefront.fetchedAt),
                time.until(storefront.nextRefreshAt),
                appsCell(storefront), storefront.lastError ?? "-",
            ])
        }
        lines += table.render(console: console, maxWidth: console.width, shrinking: 5)
        return lines
    }

    /// `199 (1 dropped, cut at 200)`: the count, and what the operator should know about it.
    private static func appsCell(_ storefront: AdminStatusReply.StorefrontStatus) -> String {
        var notes: [String] = []
        if storefront.droppedRows > 0 { notes.append("\(storefront.droppedRows) dropped") }
        if storefront.truncated { notes.append("cut at 200") }
        return String(storefront.apps) + (notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")")
    }
}
