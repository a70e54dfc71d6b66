import Varlink

/// A request or reply of the showcase interfaces: decoded from the `JSONValue` of a call's or reply's
/// parameters, and encoded back to one.
///
/// Decoding follows the Varlink rules the daemon has always applied: an optional field that is absent or
/// `null` is nil, a present field of the wrong type is an error naming it, and members this client does not
/// know are ignored, because the interfaces may add fields in any release. Encoding omits nil fields.
public protocol APIValue: Sendable, Equatable {
    /// Reads the value from an object's members; errors name the field by its full path.
    init(from object: APIObjectReader) throws(APIDecodingError)

    /// The value as the parameters object it travels as.
    func encoded() -> JSONValue
}

extension APIValue {
    /// Decodes `value`, which must be an object (a call's or reply's parameters).
    public init(decoding value: JSONValue) throws(APIDecodingError) {
        try self.init(from: try APIObjectReader(value, path: ""))
    }
}
