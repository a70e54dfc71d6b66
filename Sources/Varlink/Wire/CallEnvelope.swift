/// The members of one call message the server acts on — `method`, `parameters`, `oneway`, `more`, `upgrade` —
/// read in one pass over the object instead of a hashed lookup per member, since this runs for every call.
///
/// A class: the loop's memo keeps one per message and every ``VarlinkCall`` made from that message refers to it,
/// one reference instead of copies of the name and the parameters.
final class CallEnvelope: Sendable {
    /// The fully qualified method name.
    let method: String
    /// The parameters object's members; absent and `null` read as empty. Nil when `parameters` is present with
    /// another type, which the call is answered `InvalidParameter(parameters)` for.
    let parameters: [String: JSONValue]?
    /// The caller wants no reply.
    let oneway: Bool
    /// The caller accepts several replies; never true together with `oneway`.
    let more: Bool
    /// The caller asks to upgrade the connection to another protocol, which this server does not offer.
    let upgrade: Bool

    /// A call made in code (tests calling a handler directly), taken as given.
    init(method: String, parameters: [String: JSONValue], more: Bool, oneway: Bool) {
        self.method = method
        self.parameters = parameters
        self.more = more
        self.oneway = oneway
        upgrade = false
    }

    /// Reads a call; nil when `method` is missing or not a string (the stream cannot be trusted any more).
    init?(_ fields: [String: JSONValue]) {
        var methodValue: JSONValue?
        var onewayValue: JSONValue?
        var moreValue: JSONValue?
        var parametersValue: JSONValue?
        var upgradeValue: JSONValue?
        for (name, value) in fields {
            switch name {
            case "method": methodValue = value
            case "parameters": parametersValue = value
            case "oneway": onewayValue = value
            case "more": moreValue = value
            case "upgrade": upgradeValue = value
            default: continue
            }
        }
        guard case .string(let method)? = methodValue else { return nil }
        self.method = method
        oneway = onewayValue?.boolValue ?? false
        more = !oneway && (moreValue?.boolValue ?? false)
        upgrade = upgradeValue?.boolValue == true
        switch parametersValue {
        case nil, .null?: parameters = [:]
        case .object(let members)?: parameters = members
        default: parameters = nil
        }
    }
}
