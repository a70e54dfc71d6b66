/// A complete reply message, serialized once, NUL terminator included.
///
/// The fast path for hot calls: a service caches an `EncodedReply` (say, per roster revision)
/// and answering becomes a lookup plus a write, with no JSON work per call.
public struct EncodedReply: Sendable {
    /// The message bytes, ending in NUL.
    public let bytes: [UInt8]
    /// Whether this is a `continues: true` reply of a streaming call.
    public let continues: Bool

    /// Encodes `{"parameters": parameters}` (with `"continues": true` when `continues`).
    public init(parameters: JSONValue, continues: Bool = false) {
        var out: [UInt8] = []
        out.reserveCapacity(128)
        out.append(contentsOf: continues ? #"{"continues":true,"parameters":"#.utf8 : #"{"parameters":"#.utf8)
        if parameters.isNull {
            out.append(contentsOf: "{}".utf8)
        } else {
            parameters.serialize(into: &out)
        }
        out.append(contentsOf: [UInt8(ascii: "}"), 0])
        self.bytes = out
        self.continues = continues
    }

    /// Wraps already-serialized parameter bytes (a JSON object) without re-encoding them.
    /// The bytes must be valid JSON without NUL; that is the caller's contract.
    public init(encodedParameters: some Collection<UInt8>, continues: Bool = false) {
        var out: [UInt8] = []
        out.reserveCapacity(encodedParameters.count + 32)
        out.append(contentsOf: continues ? #"{"continues":true,"parameters":"#.utf8 : #"{"parameters":"#.utf8)
        out.append(contentsOf: encodedParameters)
        out.append(contentsOf: [UInt8(ascii: "}"), 0])
        self.bytes = out
        self.continues = continues
    }

    /// Encodes an error reply.
    public init(error: VarlinkError) {
        var out: [UInt8] = []
        out.append(contentsOf: #"{"error":"#.utf8)
        JSONValue.serialize(string: error.name, into: &out)
        out.append(contentsOf: #","parameters":"#.utf8)
        error.parameters.serialize(into: &out)
        out.append(contentsOf: [UInt8(ascii: "}"), 0])
        self.bytes = out
        self.continues = false
    }
}
