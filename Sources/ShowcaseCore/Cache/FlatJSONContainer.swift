/// The keyed container of a ``FlatJSONDecoder``: strings and integers by key; every other type (floats, booleans,
/// nested values) throws, so the caller falls back to `JSONDecoder`.
struct FlatJSONContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: FlatJSONDecoder

    /// Always empty: a flat object has no nested paths.
    var codingPath: [any CodingKey] { [] }
    /// The keys present that `Key` knows.
    var allKeys: [Key] { decoder.members.compactMap { Key(stringValue: $0.key) } }

    func contains(_ key: Key) -> Bool { decoder.member(key.stringValue) != nil }

    /// A flat header never holds `null`: a member present is a value (an absent one is what `decodeIfPresent`
    /// reads as nil).
    func decodeNil(forKey key: Key) throws -> Bool {
        _ = try member(key)
        return false
    }

    private func member(_ key: Key) throws -> FlatJSONDecoder.Member {
        guard let member = decoder.member(key.stringValue) else { throw FlatJSONDecoder.NotFlat() }
        return member
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string(member(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.integer(member(key), as: type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.integer(member(key), as: type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.integer(member(key), as: type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.integer(member(key), as: type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.integer(member(key), as: type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.integer(member(key), as: type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.integer(member(key), as: type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.integer(member(key), as: type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.integer(member(key), as: type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.integer(member(key), as: type) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { throw FlatJSONDecoder.NotFlat() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { throw FlatJSONDecoder.NotFlat() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw FlatJSONDecoder.NotFlat() }

    /// Only the types above (a `RawRepresentable` of them decodes through its raw value's `init(from:)`, which
    /// asks for a single value container and so throws as well).
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw FlatJSONDecoder.NotFlat() }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    { throw FlatJSONDecoder.NotFlat() }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw FlatJSONDecoder.NotFlat()
    }

    func superDecoder() throws -> any Decoder { throw FlatJSONDecoder.NotFlat() }

    func superDecoder(forKey key: Key) throws -> any Decoder { throw FlatJSONDecoder.NotFlat() }
}
