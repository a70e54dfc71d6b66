import Foundation

/// One Varlink reply as JSON: `parameters`, or `error` with its parameters.
struct Reply: CustomStringConvertible, @unchecked Sendable {
    let object: [String: Any]

    init(_ object: [String: Any]) { self.object = object }

    var error: String? { object["error"] as? String }
    var parameters: [String: Any] { object["parameters"] as? [String: Any] ?? [:] }
    var continues: Bool { object["continues"] as? Bool ?? false }
    subscript(key: String) -> Any? { parameters[key] }
    var string: (String) -> String? { { self.parameters[$0] as? String } }
    func int(_ key: String) -> Int? { (parameters[key] as? NSNumber)?.intValue }
    /// The `apps` array's ids, in order.
    var appIDs: [Int] {
        (parameters["apps"] as? [[String: Any]] ?? []).compactMap { ($0["id"] as? NSNumber)?.intValue }
    }
    var apps: [[String: Any]] { parameters["apps"] as? [[String: Any]] ?? [] }

    var description: String {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map {
            String(decoding: $0, as: UTF8.self)
        } ?? "\(object)"
    }
}
