import ShowcaseCore
import Varlink

/// The Varlink ``AppFieldWriter``: an app's fields as the members of one `App` object of `io.showcase.Roster`,
/// typed as the IDL declares them (`int`, `string`, `float`, `[]string`).
struct VarlinkAppFields: AppFieldWriter {
    /// The members written so far.
    private(set) var members: [String: JSONValue] = [:]

    init() { members.reserveCapacity(16) }

    mutating func int(_ name: String, _ value: Int) { members[name] = .int(Int64(value)) }

    mutating func string(_ name: String, _ value: String) { members[name] = .string(value) }

    mutating func double(_ name: String, _ value: Double) { members[name] = .double(value) }

    mutating func strings(_ name: String, _ values: [String]) { members[name] = .array(values.map(JSONValue.string)) }

    /// The `App` object of `resolved`.
    static func object(_ resolved: ResolvedApp) -> JSONValue {
        var fields = VarlinkAppFields()
        resolved.writeFields(to: &fields)
        return .object(fields.members)
    }
}
