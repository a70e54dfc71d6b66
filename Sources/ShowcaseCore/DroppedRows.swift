/// The rows of a roster body that did not become apps, counted by reason.
///
/// A few dropped rows in a good roster are normal (a row missing a field is dropped, not fatal) but must not
/// go unnoticed: Status counts them and the log names them once per refresh. When every software row drops,
/// the roster is refused instead (``LookupError/malformed(detail:)`` with ``description`` as the detail): a
/// renamed field in every row would otherwise read as "this developer has no apps".
public struct DroppedRows: Sendable, Hashable, CustomStringConvertible {
    /// How many rows were dropped for each reason ("without trackName": 3).
    public private(set) var reasons: [String: Int] = [:]

    /// No rows dropped.
    public init() {}

    /// How many rows were dropped in all.
    public var count: Int { reasons.values.reduce(0, &+) }

    /// Counts one more row dropped for `reason`.
    public mutating func add(_ reason: String) {
        reasons[reason, default: 0] &+= 1
    }

    /// "3 rows dropped: 2 without trackName, 1 with a repeated trackId", most frequent reason first.
    public var description: String {
        let parts = reasons.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.value) \($0.key)" }
        return "\(count) row\(count == 1 ? "" : "s") dropped: " + parts.joined(separator: ", ")
    }
}
