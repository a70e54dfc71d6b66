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

    /// Parses `text`, throwing `.invalidInterface` with the line and what was expected.
    public init(parsing text: String) throws(VarlinkError) {
        var scanner = IDLScanner(text)
        do {
            let parsed = try scanner.parseInterface()
            name = parsed.name
            methods = parsed.methods
            types = parsed.types
            errors = parsed.errors
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

    mutating func parseInterface() throws(IDLSyntaxError) -> (
        name: String, methods: [String], types: [String], errors: [String]
    ) {
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
        var methods: [String] = []
        var types: [String] = []
        var errors: [String] = []
        var declared = Set<String>()
        while true {
            skipSpaceAndComments()
            if index >= bytes.count { break }
            let member = word()
            switch member {
            case "type":
                let typeName = try typeName()
                guard declared.insert(typeName).inserted else { throw fail("'\(typeName)' declared twice") }
                types.append(typeName)
                skipSpaceAndComments()
                try parseStructOrEnum()
            case "method":
                let methodName = try typeName()
                guard declared.insert(methodName).inserted else { throw fail("'\(methodName)' declared twice") }
                methods.append(methodName)
                try parseStruct()
                try expect("->")
                try parseStruct()
            case "error":
                let errorName = try typeName()
                guard declared.insert(errorName).inserted else { throw fail("'\(errorName)' declared twice") }
                errors.append(errorName)
                try parseStruct()
            default:
                throw fail("expected 'type', 'method' or 'error', found '\(member)'")
            }
        }
        guard !methods.isEmpty else { throw fail("an interface needs at least one method") }
        for reference in referenced where !types.contains(reference.name) {
            throw IDLSyntaxError(line: reference.line, reason: "unknown type '\(reference.name)'")
        }
        return (name, methods, types, errors)
    }

    mutating func keyword(_ word: String) throws(IDLSyntaxError) {
        let found = self.word()
        guard found == word else { throw fail("expected '\(word)', found '\(found)'") }
    }

    /// `(` … `)` that must be a struct (method arguments, errors).
    mutating func parseStruct() throws(IDLSyntaxError) {
        skipSpaceAndComments()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "(") else { throw fail("expected '('") }
        let isEnum = try parseStructOrEnum()
        if isEnum { throw fail("expected a struct, found an enum") }
    }

    /// Parses `( … )` as a struct (`name: type, …`) or enum (`name, …`); returns true for an enum.
    @discardableResult
    mutating func parseStructOrEnum() throws(IDLSyntaxError) -> Bool {
        try expect("(")
        if peek(")") {
            index += 1
            return false
        }
        var isEnum: Bool?
        while true {
            _ = try fieldName()
            if peek(":") {
                if isEnum == true { throw fail("mixed enum and struct members") }
                isEnum = false
                index += 1
                try parseType()
            } else {
                if isEnum == false { throw fail("expected ':'") }
                isEnum = true
            }
            if peek(",") {
                index += 1
                continue
            }
            try expect(")")
            return isEnum ?? false
        }
    }

    mutating func parseType() throws(IDLSyntaxError) {
        if peek("?") {
            index += 1
            if peek("?") { throw fail("'?' cannot be repeated") }
        }
        if peek("[]") {
            index += 2
            return try parseElementType()
        }
        if peek("[string]") {
            index += 8
            return try parseElementType()
        }
        try parseElementType(allowMaybe: false)
    }

    mutating func parseElementType(allowMaybe: Bool = true) throws(IDLSyntaxError) {
        if allowMaybe, peek("?") || peek("[") {
            return try parseType()
        }
        if peek("(") {
            try parseStructOrEnum()
            return
        }
        let referenceLine = line
        let name = word()
        switch name {
        case "bool", "int", "float", "string", "object": return
        default:
            let utf8 = Array(name.utf8)
            guard let first = utf8.first, first >= 0x41, first <= 0x5A else {
                throw fail("expected a type, found '\(name)'")
            }
            referenced.append((name, referenceLine))
        }
    }
}
