/// A `Decoder` for the one shape the cache's roster headers have: one JSON object of integers and plain strings
/// (`{"appsBytes":70069,…,"storefront":"de","version":1}`), as `JSONEncoder` writes them.
///
/// The daemon reads every cached roster's header before it is ready, so the headers are decoded without
/// `JSONDecoder`: the work before READY grows with the cache, and must stay within SPEC §11's exec-to-ready
/// bound for a full one. This reads the bytes once into (key, value) ranges and decodes any flat
/// `Decodable` from them, so a field added to the header needs no change here. Anything outside that shape —
/// whitespace, escapes, non-ASCII, floats, nesting, a repeated key — throws, and ``FileCache`` then asks
/// `JSONDecoder`, which stays the authority: this is a fast path, never a second dialect.
struct FlatJSONDecoder: Decoder {
    /// One member: where its key and its value sit in the bytes.
    struct Member {
        let key: String
        /// A string's contents (without quotes), or an integer's digits.
        let value: Range<Int>
        let isString: Bool
    }

    /// Why the bytes are not the flat shape (the caller falls back to `JSONDecoder`).
    struct NotFlat: Error {}

    let bytes: [UInt8]
    let members: [Member]
    /// Always empty: a flat object has no nested paths.
    var codingPath: [any CodingKey] { [] }
    /// Always empty.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Scans `data` as a flat object; throws ``NotFlat`` for anything else.
    init(_ data: some Collection<UInt8>) throws(NotFlat) {
        let bytes = Array(data)
        self.bytes = bytes
        self.members = try Self.scan(bytes)
    }

    /// Decodes `type` from the scanned object.
    static func decode<T: Decodable>(_ type: T.Type, from data: some Collection<UInt8>) throws -> T {
        try T(from: FlatJSONDecoder(data))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FlatJSONContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NotFlat() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw NotFlat() }

    /// The member named `key`, if present.
    func member(_ key: String) -> Member? { members.first { $0.key == key } }

    /// The string a member holds.
    func string(_ member: Member) throws -> String {
        guard member.isString else { throw NotFlat() }
        return String(decoding: bytes[member.value], as: UTF8.self)
    }

    /// The integer a member holds, when it fits `T`.
    func integer<T: FixedWidthInteger>(_ member: Member, as type: T.Type) throws -> T {
        guard !member.isString else { throw NotFlat() }
        var index = member.value.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var value: T = 0
        while index < member.value.upperBound {
            let digit = T(bytes[index] &- 0x30)
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow, !overflow2 else { throw NotFlat() }
            value = next
            index += 1
        }
        return value
    }

    private static func scan(_ bytes: [UInt8]) throws(NotFlat) -> [Member] {
        try bytes.withUnsafeBufferPointer { (buffer) throws(NotFlat) -> [Member] in
            var scanner = Scanner(bytes: buffer)
            return try scanner.object()
        }
    }

    /// The scan over the bytes (a value with an index, so the hot loop has no captured variables to check).
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func object() throws(NotFlat) -> [Member] {
            var members: [Member] = []
            members.reserveCapacity(12)
            try expect(UInt8(ascii: "{"))
            if peek() == UInt8(ascii: "}") {
                index += 1
            } else {
                while true {
                    let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[try string()]), as: UTF8.self)
                    guard !members.contains(where: { $0.key == key }) else { throw NotFlat() }
                    try expect(UInt8(ascii: ":"))
                    let isString = peek() == UInt8(ascii: "\"")
                    members.append(Member(key: key, value: isString ? try string() : try integer(), isString: isString))
                    if peek() == UInt8(ascii: "}") {
                        index += 1
                        break
                    }
                    try expect(UInt8(ascii: ","))
                }
            }
            guard index == bytes.count else { throw NotFlat() }
            return members
        }

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func expect(_ byte: UInt8) throws(NotFlat) {
            guard peek() == byte else { throw NotFlat() }
            index += 1
        }

        /// A string's contents: printable ASCII without `"` or `\`.
        mutating func string() throws(NotFlat) -> Range<Int> {
            try expect(UInt8(ascii: "\""))
            let start = index
            while let byte = peek(), byte != UInt8(ascii: "\"") {
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { throw NotFlat() }
                index += 1
            }
            let range = start..<index
            try expect(UInt8(ascii: "\""))
            return range
        }

        /// `-?(0|[1-9][0-9]*)`, at most 19 digits.
        mutating func integer() throws(NotFlat) -> Range<Int> {
            let start = index
            if peek() == UInt8(ascii: "-") { index += 1 }
            let digits = index
            while let byte = peek(), (0x30...0x39).contains(byte) { index += 1 }
            let count = index - digits
            guard count > 0, count <= 19, count == 1 || bytes[digits] != 0x30 else { throw NotFlat() }
            return start..<index
        }
    }
}
