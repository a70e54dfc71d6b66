import Varlink

/// Reads the members of one JSON object for an ``APIValue``, turning every absence or type mismatch into an
/// ``APIDecodingError`` that carries the member's full path.
public struct APIObjectReader: Sendable {
    /// The object's members.
    public let members: [String: JSONValue]
    /// Where this object sits in the parameters (`apps[3]`); empty for the parameters themselves.
    public let path: String

    /// Opens `value` as an object found at `path`.
    public init(_ value: JSONValue, path: String) throws(APIDecodingError) {
        guard case .object(let members) = value else {
            throw APIDecodingError(field: path, problem: value.isNull ? .missing : .wrongType(expected: "an object"))
        }
        self.members = members
        self.path = path
    }

    /// The path of the member `key`.
    public func path(of key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    /// The member `key`, nil when absent or `null`.
    private func present(_ key: String) -> JSONValue? {
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    private func required<T>(_ key: String, _ read: (String) throws(APIDecodingError) -> T?)
        throws(APIDecodingError) -> T
    {
        guard let value = try read(key) else { throw APIDecodingError(field: path(of: key), problem: .missing) }
        return value
    }

    // MARK: Scalars

    /// The optional string `key`.
    public func optionalString(_ key: String) throws(APIDecodingError) -> String? {
        try optionalString(key, members[key])
    }

    /// The optional string `key` whose member, nil when absent, the caller already found (a one-pass reader).
    public func optionalString(_ key: String, _ member: JSONValue?) throws(APIDecodingError) -> String? {
        guard let value = member, !value.isNull else { return nil }
        guard case .string(let text) = value else {
            throw APIDecodingError(field: path(of: key), problem: .wrongType(expected: "a string"))
        }
        return text
    }

    /// The required string `key`.
    public func string(_ key: String) throws(APIDecodingError) -> String {
        try required(key, optionalString)
    }

    /// The required string `key` whose member, nil when absent, the caller already found.
    public func string(_ key: String, _ member: JSONValue?) throws(APIDecodingError) -> String {
        guard let text = try optionalString(key, member) else {
            throw APIDecodingError(field: path(of: key), problem: .missing)
        }
        return text
    }

    /// The optional integer `key`; a float with an exact integer value is accepted, as some clients send `1.0`.
    public func optionalInt(_ key: String) throws(APIDecodingError) -> Int? {
        try optionalInt(key, members[key])
    }

    /// The optional integer `key` whose member, nil when absent, the caller already found.
    public func optionalInt(_ key: String, _ member: JSONValue?) throws(APIDecodingError) -> Int? {
        guard let value = member, !value.isNull else { return nil }
        guard let number = value.intValue, let exact = Int(exactly: number) else {
            throw APIDecodingError(field: path(of: key), problem: .wrongType(expected: "an integer"))
        }
        return exact
    }

    /// The required integer `key`.
    public func int(_ key: String) throws(APIDecodingError) -> Int {
        try required(key, optionalInt)
    }

    /// The optional number `key`, integer or float (`0`, `2.99`).
    public func optionalDouble(_ key: String) throws(APIDecodingError) -> Double? {
        guard let value = present(key) else { return nil }
        guard let number = value.doubleValue else {
            throw APIDecodingError(field: path(of: key), problem: .wrongType(expected: "a number"))
        }
        return number
    }

    /// The optional boolean `key`.
    public func optionalBool(_ key: String) throws(APIDecodingError) -> Bool? {
        guard let value = present(key) else { return nil }
        guard case .bool(let flag) = value else {
            throw APIDecodingError(field: path(of: key), problem: .wrongType(expected: "a boolean"))
        }
        return flag
    }

    /// The required boolean `key`.
    public func bool(_ key: String) throws(APIDecodingError) -> Bool {
        try required(key, optionalBool)
    }

    // MARK: Structures

    /// The optional object `key`, decoded as `T`.
    public func optionalValue<T: APIValue>(_ key: String, as type: T.Type = T.self) throws(APIDecodingError) -> T? {
        guard let value = present(key) else { return nil }
        return try T(from: APIObjectReader(value, path: path(of: key)))
    }

    /// The required object `key`, decoded as `T`.
    public func value<T: APIValue>(_ key: String, as type: T.Type = T.self) throws(APIDecodingError) -> T {
        try required(key) { (key) throws(APIDecodingError) in try optionalValue(key, as: T.self) }
    }

    /// The required array `key`, each element read by `element` from the value and its path (`apps[3]`).
    public func array<T>(_ key: String, _ element: (JSONValue, String) throws(APIDecodingError) -> T)
        throws(APIDecodingError) -> [T]
    {
        guard let value = present(key) else { throw APIDecodingError(field: path(of: key), problem: .missing) }
        guard case .array(let elements) = value else {
            throw APIDecodingError(field: path(of: key), problem: .wrongType(expected: "an array"))
        }
        var result: [T] = []
        result.reserveCapacity(elements.count)
        for (index, item) in elements.enumerated() {
            result.append(try element(item, path(of: key) + "[\(index)]"))
        }
        return result
    }

    /// The required array of objects `key`, each decoded as `T`.
    public func array<T: APIValue>(_ key: String, of type: T.Type) throws(APIDecodingError) -> [T] {
        try array(key) { (item, path) throws(APIDecodingError) in try T(from: APIObjectReader(item, path: path)) }
    }

    /// The optional array of objects `key`, each decoded as `T`; nil when absent or null.
    public func optionalArray<T: APIValue>(_ key: String, of type: T.Type) throws(APIDecodingError) -> [T]? {
        guard present(key) != nil else { return nil }
        return try array(key, of: type)
    }

    /// The required array of strings `key`.
    public func strings(_ key: String) throws(APIDecodingError) -> [String] {
        try array(key) { (item, path) throws(APIDecodingError) in
            guard case .string(let text) = item else {
                throw APIDecodingError(field: path, problem: item.isNull ? .missing : .wrongType(expected: "a string"))
            }
            return text
        }
    }
}
