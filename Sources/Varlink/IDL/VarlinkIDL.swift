/// A parsed Varlink interface definition (the IDL text served by `GetInterfaceDescription`).
///
/// Parsing at registration time means a typo in an interface's IDL fails the service's start
/// (and its tests) instead of surfacing as a third-party client refusing to talk to us, and it
/// tells the server which methods exist, so it can tell `MethodNotFound` from
/// `MethodNotImplemented`.
public struct VarlinkIDL: Sendable {
    /// The interface name, e.g. `io.showcase.Roster`.
    public let name: String
    /// Method names (unqualified), in declaration order.
    public let methods: [String]
    /// Named types (unqualified).
    public let types: [String]
    /// Error names (unqualified).
    public let errors: [String]
    /// The text as given.
    public let text: String
    /// Each named type's definition: a struct's fields or an enum's cases.
    public let typeDefinitions: [String: VarlinkType]
    /// Each method's parameters and reply fields.
    public let signatures: [String: Signature]
    /// Each error's parameters.
    public let errorParameters: [String: [VarlinkField]]

    /// A method's two field lists: what a call sends and what a reply carries.
    public struct Signature: Sendable, Equatable {
        /// The call's parameters.
        public let parameters: [VarlinkField]
        /// The reply's parameters.
        public let reply: [VarlinkField]
    }

    /// What the scanner collects, in declaration order.
    struct Declarations {
        let name: String
        var methods: [String] = []
        var types: [String] = []
        var errors: [String] = []
        var typeDefinitions: [String: VarlinkType] = [:]
        var signatures: [String: Signature] = [:]
        var errorParameters: [String: [VarlinkField]] = [:]
    }

    /// Parses `text`, throwing `.invalidInterface` with the line and what was expected.
    public init(parsing text: String) throws(VarlinkError) {
        var scanner = IDLScanner(text)
        do {
            let parsed = try scanner.parseInterface()
            name = parsed.name
            methods = parsed.methods
            types = parsed.types
            errors = parsed.errors
            typeDefinitions = parsed.typeDefinitions
            signatures = parsed.signatures
            errorParameters = parsed.errorParameters
            self.text = text
        } catch {
            throw VarlinkError(
                code: .invalidInterface,
                detail: "The interface definition is invalid at line \(error.line): \(error.reason). "
                    + "Fix the IDL text so Varlink clients can parse it.")
        }
    }
}

struct IDLSyntaxError: Error {
    let line: Int
    let reason: String
}

/// Recursive-descent parser for the Varlink IDL grammar (varlink.org "Interface Definition").
struct IDLScanner {
    let bytes: [UInt8]
    var index = 0
    var referenced: [(name: String, line: Int)] = []

    init(_ text: String) { bytes = Array(text.utf8) }

    var line: Int { bytes[..<min(index, bytes.count)].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 } }

    func fail(_ reason: String) -> IDLSyntaxError { IDLSyntaxError(line: line, reason: reason) }

    mutating func skipSpaceAndComments() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            default: return
            }
        }
    }

    mutating func peek(_ token: String) -> Bool {
        skipSpaceAndComments()
        let utf8 = Array(token.utf8)
        guard index + utf8.count <= bytes.count else { return false }
        return Array(bytes[index..<index + utf8.count]) == utf8
    }

    mutating func expect(_ token: String) throws(IDLSyntaxError) {
        guard peek(token) else { throw fail("expected '\(token)'") }
        index += token.utf8.count
    }

    func isAlpha(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    /// A word of letters, digits, `_`, `-` and `.`; the caller checks its shape.
    mutating func word() -> String {
        skipSpaceAndComments()
        let start = index
        while index < bytes.count {
            let b = bytes[index]
            if isAlpha(b) || isDigit(b) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") {
                index += 1
            } else {
                break
            }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// `[A-Z][A-Za-z0-9]*`
    mutating func typeName() throws(IDLSyntaxError) -> String {
        let name = word()
        let utf8 = Array(name.utf8)
        guard let first = utf8.first, first >= 0x41, first <= 0x5A,
            utf8.allSatisfy({ isAlpha($0) || isDigit($0) })
        else { throw fail("expected a capitalized name, found '\(name)'") }
        return name
    }

    /// `[A-Za-z](_?[A-Za-z0-9])*`
    mutating func fieldName() throws(IDLSyntaxError) -> String {
        let name = word()
        let utf8 = Array(name.utf8)
        guard let first = utf8.first, isAlpha(first), utf8.last != UInt8(ascii: "_"),
            utf8.allSatisfy({ isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "_") }),
            !name.contains("__")
        else { throw fail("expected a field name, found '\(name)'") }
        return name
    }

    mutating func parseInterface() throws(IDLSyntaxError) -> VarlinkIDL.Declarations {
        try keyword("interface")
        let name = word()
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2,
            labels.allSatisfy({ label in
                let utf8 = Array(label.utf8)
                guard let first = utf8.first, let last = utf8.last else { return false }
                return (isAlpha(first) || isDigit(first)) && last != UInt8(ascii: "-")
                    && utf8.allSatisfy { isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "-") }
            })
        else { throw fail("invalid interface name '\(name)'") }
        var parsed = VarlinkIDL.Declarations(name: name)
        var declared = Set<String>()
        while true {
            skipSpaceAndComments()
            if index >= bytes.count { break }
            let member = word()
            switch member {
            case "type":
                let typeName = try typeName()
                guard declared.insert(typeName).inserted else { throw fail("'\(typeName)' declared twice") }
                parsed.types.append(typeName)
                skipSpaceAndComments()
                parsed.typeDefinitions[typeName] = try parseStructOrEnum()
            case "method":
                let methodName = try typeName()
                guard declared.insert(methodName).inserted else { throw fail("'\(methodName)' declared twice") }
                parsed.methods.append(methodName)
                let parameters = try parseStruct()
                try expect("->")
                parsed.signatures[methodName] = VarlinkIDL.Signature(parameters: parameters, reply: try parseStruct())
            case "error":
                let errorName = try typeName()
                guard declared.insert(errorName).inserted else { throw fail("'\(errorName)' declared twice") }
                parsed.errors.append(errorName)
                parsed.errorParameters[errorName] = try parseStruct()
            default:
                throw fail("expected 'type', 'method' or 'error', found '\(member)'")
            }
        }
        guard !parsed.methods.isEmpty else { throw fail("an interface needs at least one method") }
        for reference in referenced where !parsed.types.contains(reference.name) {
            throw IDLSyntaxError(line: reference.line, reason: "unknown type '\(reference.name)'")
        }
        return parsed
    }

    mutating func keyword(_ word: String) throws(IDLSyntaxError) {
        let found = self.word()
        guard found == word else { throw fail("expected '\(word)', found '\(found)'") }
    }

    /// `(` … `)` that must be a struct (method arguments, errors); its fields.
    mutating func parseStruct() throws(IDLSyntaxError) -> [VarlinkField] {
        skipSpaceAndComments()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "(") else { throw fail("expected '('") }
        guard case .structure(let fields) = try parseStructOrEnum() else {
            throw fail("expected a struct, found an enum")
        }
        return fields
    }

    /// Parses `( … )` as a struct (`name: type, …`) or enum (`name, …`); `()` is an empty struct.
    mutating func parseStructOrEnum() throws(IDLSyntaxError) -> VarlinkType {
        try expect("(")
        if peek(")") {
            index += 1
            return .structure([])
        }
        var fields: [VarlinkField] = []
        var cases: [String] = []
        while true {
            let name = try fieldName()
            if peek(":") {
                if !cases.isEmpty { throw fail("mixed enum and struct members") }
                index += 1
                fields.append(VarlinkField(name: name, type: try parseType()))
            } else {
                if !fields.isEmpty { throw fail("expected ':'") }
                cases.append(name)
            }
            if peek(",") {
                index += 1
                continue
            }
            try expect(")")
            return cases.isEmpty ? .structure(fields) : .enumeration(cases)
        }
    }

    mutating func parseType() throws(IDLSyntaxError) -> VarlinkType {
        if peek("?") {
            index += 1
            if peek("?") { throw fail("'?' cannot be repeated") }
            return .optional(try parseUnwrappedType())
        }
        return try parseUnwrappedType()
    }

    /// A type without a leading `?`: an array, a map, or an element type.
    private mutating func parseUnwrappedType() throws(IDLSyntaxError) -> VarlinkType {
        if peek("[]") {
            index += 2
            return .array(try parseElementType())
        }
        if peek("[string]") {
            index += 8
            return .map(try parseElementType())
        }
        return try parseElementType(allowMaybe: false)
    }

    mutating func parseElementType(allowMaybe: Bool = true) throws(IDLSyntaxError) -> VarlinkType {
        if allowMaybe, peek("?") || peek("[") {
            return try parseType()
        }
        if peek("(") {
            return try parseStructOrEnum()
        }
        let referenceLine = line
        let name = word()
        switch name {
        case "bool": return .bool
        case "int": return .int
        case "float": return .float
        case "string": return .string
        case "object": return .object
        default:
            let utf8 = Array(name.utf8)
            guard let first = utf8.first, first >= 0x41, first <= 0x5A else {
                throw fail("expected a type, found '\(name)'")
            }
            referenced.append((name, referenceLine))
            return .named(name)
        }
    }
}
