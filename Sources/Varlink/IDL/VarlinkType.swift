/// A type expression of the Varlink IDL: what a field, a method's parameters or an error's parameters hold.
///
/// ``VarlinkIDL`` keeps these for every declaration, so that a test (or a client) can check a value against the
/// field lists a third-party parser reads from the same text.
public indirect enum VarlinkType: Sendable, Equatable {
    /// `bool`
    case bool
    /// `int`
    case int
    /// `float`: any number.
    case float
    /// `string`
    case string
    /// `object`: any JSON object, its members not described.
    case object
    /// A type declared with `type Name …` in the same interface.
    case named(String)
    /// `?T`: the member may be absent or `null`.
    case optional(VarlinkType)
    /// `[]T`
    case array(VarlinkType)
    /// `[string]T`: an object whose every member is a `T` (`[string]()` is a set).
    case map(VarlinkType)
    /// `(name: T, …)`: an object with these fields.
    case structure([VarlinkField])
    /// `(a, b, c)`: one of these strings.
    case enumeration([String])
}

/// One `name: type` member of a struct, of a method's parameters or reply, or of an error.
public struct VarlinkField: Sendable, Equatable {
    /// The member's name as it appears in JSON.
    public let name: String
    /// What it holds.
    public let type: VarlinkType

    /// A member `name` of type `type`.
    public init(name: String, type: VarlinkType) {
        self.name = name
        self.type = type
    }
}
