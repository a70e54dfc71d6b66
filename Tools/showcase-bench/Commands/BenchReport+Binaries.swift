import Foundation

/// The binaries row (SPEC §11, issue 21): each shipped binary's stripped size against 20 MB (10⁶ bytes), with the
/// startup of `showcased --version` and `showcasectl --help` beside it (reported, not judged: a timing).
extension BenchReport {
    /// The SPEC §11 limit on each stripped release binary, in bytes.
    static let binaryLimit = 20_000_000

    static func binaryRows(_ entries: [[String: Any]]) -> [Row] {
        let figure = "binaries, stripped (release, --static-swift-stdlib)"
        guard let entry = entries.first(where: { $0["label"] as? String == "binaries" }),
            let stripped = entry["stripped"] as? [String: Any], !stripped.isEmpty
        else {
            let reason = entries.first { $0["label"] as? String == "skip" && $0["row"] as? String == "binaries" }
            return [
                Row(
                    figure: figure, ours: "n/a", floor: "", ratio: "", target: "each ≤ 20 MB", verdict: "n/a",
                    note: reason?["reason"] as? String ?? "not measured")
            ]
        }
        let sizes = stripped.compactMap { name, value in (value as? NSNumber).map { (name, $0.intValue) } }
            .sorted { $0.0 < $1.0 }
        let startup = (entry["startupMs"] as? [String: Any] ?? [:])
            .compactMap { name, value in (value as? NSNumber).map { (name, $0.doubleValue) } }
            .sorted { $0.0 < $1.0 }
        let runs = (entry["startupRuns"] as? Int) ?? 0
        return [
            Row(
                figure: figure,
                ours: sizes.map { "\($0.0) " + String(format: "%.1f MB", Double($0.1) / 1e6) }.joined(separator: ", "),
                floor: "", ratio: "", target: "each ≤ 20 MB",
                verdict: sizes.allSatisfy { $0.1 <= binaryLimit } ? "PASS" : "FAIL",
                note: "startup (median of \(runs)): "
                    + startup.map { "\($0.0) " + String(format: "%.1f ms", $0.1) }.joined(separator: ", "))
        ]
    }
}
