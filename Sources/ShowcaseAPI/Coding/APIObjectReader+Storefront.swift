import ShowcaseCore
import Varlink

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

    private func parsed(_ key: String, _ text: String) throws(APIDecodingError) -> Storefront {
        do { return try Storefront(parsing: text) } catch {
            throw APIDecodingError(field: path(of: key), problem: .unknownStorefront(error))
        }
    }
}
