import Varlink

/// Collects the members of one parameters object for an ``APIValue``'s `encoded()`, leaving nil fields out so
/// an optional field reads as absent rather than `null`.
struct APIObjectBuilder {
    private(set) var members: [String: JSONValue] = [:]

    init(capacity: Int) { members.reserveCapacity(capacity) }

    mutating func set(_ key: String, _ value: String?) {
        if let value { members[key] = .string(value) }
    }

    mutating func set(_ key: String, _ value: Int?) {
        if let value { members[key] = .int(Int64(value)) }
    }

    mutating func set(_ key: String, _ value: Double?) {
        if let value { members[key] = .double(value) }
    }

    mutating func set(_ key: String, _ value: Bool?) {
        if let value { members[key] = .bool(value) }
    }

    mutating func set(_ key: String, _ value: [String]) {
        members[key] = .array(value.map(JSONValue.string))
    }

    mutating func set(_ key: String, _ value: (some APIValue)?) {
        if let value { members[key] = value.encoded() }
    }

    mutating func set(_ key: String, _ values: [some APIValue]) {
        members[key] = .array(values.map { $0.encoded() })
    }

    mutating func set(_ key: String, _ value: JSONValue) {
        if !value.isNull { members[key] = value }
    }

    /// The finished object.
    var object: JSONValue { .object(members) }
}
