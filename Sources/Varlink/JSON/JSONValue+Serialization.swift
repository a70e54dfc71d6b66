extension JSONValue {
    /// The compact JSON bytes of this value: object keys sorted, no insignificant whitespace,
    /// `/` not escaped, control characters (including NUL) escaped so the bytes never contain
    /// the Varlink frame terminator.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        serialize(into: &out)
        return out
    }

    /// Appends the compact JSON bytes of this value to `out`.
    public func serialize(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): out.append(contentsOf: String(value).utf8)
        case .double(let value):
            if value.isFinite {
                out.append(contentsOf: value.description.utf8)
            } else {
                out.append(contentsOf: "null".utf8)
            }
        case .string(let value): JSONValue.serialize(string: value, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                element.serialize(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members): JSONValue.serialize(members: members, into: &out)
        }
    }

    /// Appends this object's compact JSON bytes to `out` with the member `key` written as `serialized`, one JSON
    /// value serialized earlier (without NUL: the caller's contract): the bytes ``serialize(into:)`` gives for the
    /// object with `key` set to the value `serialized` encodes, so a large member that many messages carry is
    /// encoded once and copied into each. A value that is not an object is serialized as it is.
    public func serialize(into out: inout [UInt8], member key: String, serializedAs serialized: [UInt8]) {
        guard case .object(var members) = self else { return serialize(into: &out) }
        members[key] = .null  // sorted with the others; written as `serialized`
        JSONValue.serialize(members: members, into: &out, splicing: (key, serialized))
    }

    /// Appends an object's members, keys sorted; the member `splicing.key`, if given, as the bytes `splicing.value`.
    private static func serialize(
        members: [String: JSONValue], into out: inout [UInt8], splicing: (key: String, value: [UInt8])? = nil
    ) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for key in members.keys.sorted() {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONValue.serialize(string: key, into: &out)
            out.append(UInt8(ascii: ":"))
            if let splicing, key == splicing.key {
                out.append(contentsOf: splicing.value)
            } else {
                members[key]!.serialize(into: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends `string` as a quoted, escaped JSON string.
    public static func serialize(string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for position in 0..<utf8.count {
                let byte = utf8[position]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                if runStart < position {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                }
                runStart = position + 1
                switch byte {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
                case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    out.append(contentsOf: [
                        0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)],
                    ])
                }
            }
            if runStart < utf8.count {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
