/// A JSON document as the Varlink wire carries it.
///
/// Integers and floating-point numbers stay distinct (`.int` keeps full 64-bit precision, which
/// `Double` would silently round above 2^53); objects are dictionaries and always serialize with
/// sorted keys, so the same value always produces the same bytes — the property reply caches
/// and tests rely on.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// An integer literal (no fraction, no exponent) that fits in 64 bits.
    case int(Int64)
    /// Any other number. Non-finite values serialize as `null`, since JSON cannot carry them.
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The empty object, which Varlink treats the same as absent or `null` parameters.
    public static let emptyObject = JSONValue.object([:])

    /// The member named `key` when this is an object, otherwise `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The value when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The value when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The value when this is an integer, or a double with an exact integer value
    /// (some clients send `1.0` for an `int` field).
    public var intValue: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value):
            guard value.rounded() == value, let exact = Int64(exactly: value) else { return nil }
            return exact
        default: return nil
        }
    }

    /// The numeric value of `.int` or `.double`.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The elements when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// True for `.null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) { self = .null }
    /// A Swift `true`/`false` literal is a JSON boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal is `.int`.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A floating-point literal is `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal is a JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal is a JSON array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal is a JSON object; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { String(decoding: serialized(), as: UTF8.self) }
}
