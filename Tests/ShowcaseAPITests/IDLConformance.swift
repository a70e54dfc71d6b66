import Varlink

/// Checks JSON values against the field lists and types a parsed IDL declares: what a third-party client that
/// reads the same IDL text would accept.
///
/// Round trips encode and decode with one Swift type, so a field misspelt on both sides passes them; this checks
/// the encoding against the IDL instead: every member is a field the IDL declares, of the declared type, and every
/// field the IDL does not mark optional is present.
struct IDLConformance {
    let idl: VarlinkIDL

    /// What `value` gets wrong as an object of `fields`, one sentence per mistake naming its path; empty when it
    /// conforms.
    func problems(_ value: JSONValue, fields: [VarlinkField]) -> [String] {
        problems(value, type: .structure(fields), at: "")
    }

    /// The paths of the fields `value` sets, array elements spelled `[]` (`apps[].tagline`).
    func setPaths(_ value: JSONValue, fields: [VarlinkField]) -> Set<String> {
        setPaths(value, type: .structure(fields), at: "")
    }

    /// The paths of every field `fields` declares, nested types included, in the spelling of ``setPaths(_:fields:)``.
    func declaredPaths(_ fields: [VarlinkField]) -> Set<String> {
        declaredPaths(.structure(fields), at: "", depth: 0)
    }

    private static func join(_ path: String, _ name: String) -> String { path.isEmpty ? name : path + "." + name }

    private func problems(_ member: JSONValue?, type: VarlinkType, at path: String) -> [String] {
        let subject = path.isEmpty ? "the parameters" : "'\(path)'"
        if case .optional(let wrapped) = type {
            guard let member, !member.isNull else { return [] }
            return problems(member, type: wrapped, at: path)
        }
        guard let value = member else { return ["\(subject) is missing"] }
        switch (type, value) {
        case (.bool, .bool), (.int, .int), (.float, .int), (.float, .double), (.string, .string), (.object, .object):
            return []
        case (.named(let name), _):
            guard let definition = idl.typeDefinitions[name] else { return ["\(subject): no type \(name) in the IDL"] }
            return problems(value, type: definition, at: path)
        case (.array(let element), .array(let items)):
            return items.enumerated().flatMap { problems($1, type: element, at: "\(path)[\($0)]") }
        case (.map(let element), .object(let members)):
            return members.keys.sorted().flatMap { problems(members[$0], type: element, at: "\(path)[\($0)]") }
        case (.structure(let fields), .object(let members)):
            let declared = Set(fields.map(\.name))
            let undeclared = members.keys.filter { !declared.contains($0) }.sorted().map {
                "'\(Self.join(path, $0))' is not a field the IDL declares"
            }
            return undeclared
                + fields.flatMap { problems(members[$0.name], type: $0.type, at: Self.join(path, $0.name)) }
        case (.enumeration(let cases), .string(let text)) where cases.contains(text):
            return []
        default:
            return ["\(subject) is \(Self.kind(value)) where the IDL declares \(Self.spelled(type))"]
        }
    }

    private func setPaths(_ member: JSONValue?, type: VarlinkType, at path: String) -> Set<String> {
        guard let value = member, !value.isNull else { return [] }
        switch (type, value) {
        case (.optional(let wrapped), _): return setPaths(value, type: wrapped, at: path)
        case (.named(let name), _):
            return idl.typeDefinitions[name].map { setPaths(value, type: $0, at: path) } ?? []
        case (.array(let element), .array(let items)):
            return items.reduce(into: []) { $0.formUnion(setPaths($1, type: element, at: path + "[]")) }
        case (.map(let element), .object(let members)):
            return members.values.reduce(into: []) { $0.formUnion(setPaths($1, type: element, at: path + "[]")) }
        case (.structure(let fields), .object(let members)):
            return fields.reduce(into: []) { paths, field in
                guard let member = members[field.name], !member.isNull else { return }
                let fieldPath = Self.join(path, field.name)
                paths.insert(fieldPath)
                paths.formUnion(setPaths(member, type: field.type, at: fieldPath))
            }
        default: return []
        }
    }

    private func declaredPaths(_ type: VarlinkType, at path: String, depth: Int) -> Set<String> {
        guard depth < 16 else { return [] }  // a recursive type: its first levels are enough
        switch type {
        case .optional(let wrapped): return declaredPaths(wrapped, at: path, depth: depth)
        case .named(let name):
            return idl.typeDefinitions[name].map { declaredPaths($0, at: path, depth: depth + 1) } ?? []
        case .array(let element), .map(let element): return declaredPaths(element, at: path + "[]", depth: depth)
        case .structure(let fields):
            return fields.reduce(into: []) { paths, field in
                let fieldPath = Self.join(path, field.name)
                paths.insert(fieldPath)
                paths.formUnion(declaredPaths(field.type, at: fieldPath, depth: depth))
            }
        case .bool, .int, .float, .string, .object, .enumeration: return []
        }
    }

    private static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .int: "an integer"
        case .double: "a float"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    private static func spelled(_ type: VarlinkType) -> String {
        switch type {
        case .bool: "bool"
        case .int: "int"
        case .float: "float"
        case .string: "string"
        case .object: "object"
        case .named(let name): name
        case .optional(let wrapped): "?" + spelled(wrapped)
        case .array(let element): "[]" + spelled(element)
        case .map(let element): "[string]" + spelled(element)
        case .structure(let fields):
            "(" + fields.map { "\($0.name): \(spelled($0.type))" }.joined(separator: ", ") + ")"
        case .enumeration(let cases): "(" + cases.joined(separator: ", ") + ")"
        }
    }
}
