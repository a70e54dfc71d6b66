import ShowcaseCore
import Varlink

/// The contract's domain types read where a call is read, so a request holds a `Storefront`, a `Platform`, a
/// `DeviceFamily` or an `OSVersion` and no method parses one again.
extension APIObjectReader {
    /// A required storefront parameter, parsed where the call is read: a code that is no storefront is
    /// ``APIDecodingError/Problem/unknownStorefront(_:)``, which a server answers with `UnknownStorefront` naming
    /// the text as the caller wrote it (not `InvalidParameter`: the parameter has the declared type).
    public func storefront(_ key: String, _ member: JSONValue? = nil) throws(APIDecodingError) -> Storefront {
        try parsed(key, try string(key, member ?? members[key]))
    }

    /// An optional storefront parameter (absent or `null` is nil), parsed as ``storefront(_:_:)`` parses one.
    public func optionalStorefront(_ key: String) throws(APIDecodingError) -> Storefront? {
        guard let text = try optionalString(key) else { return nil }
        return try parsed(key, text)
    }

    /// An optional parameter of a domain type (`Platform`, `OSVersion`), read from `member` and parsed by `parse`;
    /// text that does not parse is ``APIDecodingError/Problem/invalid(_:)`` saying what was `expected`, which a
    /// server answers with `InvalidParameter` naming the parameter.
    public func optionalValue<Value>(
        _ key: String, _ member: JSONValue?, expected: String, _ parse: (String) -> Value?
    ) throws(APIDecodingError) -> Value? {
        guard let text = try optionalString(key, member) else { return nil }
        guard let value = parse(text) else {
            throw APIDecodingError(field: path(of: key), problem: .invalid("is not \(expected)"))
        }
        return value
    }

    private func parsed(_ key: String, _ text: String) throws(APIDecodingError) -> Storefront {
        do { return try Storefront(parsing: text) } catch {
            throw APIDecodingError(field: path(of: key), problem: .unknownStorefront(error))
        }
    }
}
