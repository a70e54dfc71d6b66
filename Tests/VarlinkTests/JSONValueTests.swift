import Testing

@testable import Varlink

@Suite("JSONValue parsing and serialization")
struct JSONValueTests {
    @Test("keeps integers and doubles apart and keeps 64-bit integer precision")
    func numbers() throws {
        #expect(try JSONValue(parsing: "9223372036854775807") == .int(Int64.max))
        #expect(try JSONValue(parsing: "-9223372036854775808") == .int(Int64.min))
        #expect(try JSONValue(parsing: "9007199254740993") == .int(9_007_199_254_740_993))
        #expect(try JSONValue(parsing: "1.0") == .double(1.0))
        #expect(try JSONValue(parsing: "1e2") == .double(100))
        #expect(try JSONValue(parsing: "-0.5E-1") == .double(-0.05))
        #expect(try JSONValue(parsing: "18446744073709551616") == .double(18_446_744_073_709_551_616))
        #expect(JSONValue.double(1.0).description == "1.0")
        #expect(JSONValue.int(Int64.max).description == "9223372036854775807")
        #expect(JSONValue.double(.infinity).description == "null")
    }

    @Test("serializes objects with sorted keys so equal values give equal bytes")
    func deterministic() throws {
        let value: JSONValue = ["b": 1, "a": ["z": true, "y": nil], "c": [1, 2.5, "x"]]
        #expect(value.description == #"{"a":{"y":null,"z":true},"b":1,"c":[1,2.5,"x"]}"#)
        let reparsed = try JSONValue(parsing: value.description)
        #expect(reparsed == value)
        #expect(reparsed.serialized() == value.serialized())
    }

    @Test("a member serialized earlier is spliced in where serializing the whole object would write it")
    func splicedMember() throws {
        let member: JSONValue = [["id": 1, "name": "Tide \"Log\""], ["id": 2, "devices": ["iphone"]]]
        for key in ["apps", "m", "zz"] {
            let empty: JSONValue = ["revision": 7, "state": "fresh", "meta": [key: "nested, kept"], key: []]
            var whole = empty
            if case .object(var members) = whole {
                members[key] = member
                whole = .object(members)
            }
            var spliced: [UInt8] = []
            empty.serialize(into: &spliced, member: key, serializedAs: member.serialized())
            #expect(spliced == whole.serialized(), "\(key)")
        }
        // A member the object lacks is added in its place; a value that is no object is written as it is.
        var added: [UInt8] = []
        JSONValue.object(["b": 1]).serialize(into: &added, member: "a", serializedAs: Array("[]".utf8))
        #expect(String(decoding: added, as: UTF8.self) == #"{"a":[],"b":1}"#)
        var scalar: [UInt8] = []
        JSONValue.int(3).serialize(into: &scalar, member: "a", serializedAs: Array("[]".utf8))
        #expect(scalar == Array("3".utf8))
    }

    @Test("decodes escapes including NUL and surrogate pairs, and escapes NUL on output")
    func escapes() throws {
        let parsed = try JSONValue(parsing: #""a\u0000b\n\t\"\\\/\ud83d\ude00\u00e9""#)
        #expect(parsed == .string("a\u{0}b\n\t\"\\/😀é"))
        let bytes = parsed.serialized()
        #expect(!bytes.contains(0))
        #expect(String(decoding: bytes, as: UTF8.self) == #""a\u0000b\n\t\"\\/😀é""#)
        #expect(try JSONValue(parsing: bytes) == parsed)
    }

    @Test("passes raw UTF-8 through and accepts every valid sequence length")
    func utf8() throws {
        let text = "ä€😀 日本"
        #expect(try JSONValue(parsing: Array("\"\(text)\"".utf8)) == .string(text))
    }

    @Test(
        "rejects invalid JSON",
        arguments: [
            "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "+1", "tru", "nul", "\"abc", "{\"a\" 1}", "[1 2]",
            "1 2", "{a:1}", "'x'", "\"\\x\"", "\"\\u12\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83d\\u0041\"",
            "NaN", "[", "{\"a\":}",
        ])
    func rejectsInvalid(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test(
        "rejects invalid UTF-8 and raw control characters in strings",
        arguments: [
            [0x22, 0xC3, 0x28, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22], [0x22, 0xFF, 0x22],
            [0x22, 0x01, 0x22], [0x22, 0x0A, 0x22], [0xEF, 0xBB, 0xBF, 0x31],
        ] as [[UInt8]])
    func rejectsBadBytes(bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: bytes) }
    }

    @Test(
        "refuses a number beyond Double's range instead of reading it as infinity (which would serialize as null)",
        arguments: ["1e400", "-1e400", "\t2222222220000000169711828543917E843332222221", "[1,1E309]"])
    func outOfRange(text: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: text) }
    }

    @Test("serializes large, tiny and integral doubles so they parse back to the same value")
    func doubleRoundTrip() throws {
        for text in ["1.7976931348623157e308", "-1.7976931348623157e308", "5e-324", "1e-400", "1e5", "-0.0"] {
            let value = try JSONValue(parsing: text)
            #expect(try JSONValue(parsing: value.serialized()) == value, "\(text)")
        }
    }

    @Test("refuses nesting deeper than the limit instead of exhausting the stack")
    func depthLimit() throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(try JSONValue(parsing: fine).arrayValue != nil)
    }

    @Test("treats whitespace around a value as insignificant")
    func whitespace() throws {
        #expect(try JSONValue(parsing: " \n\t{ \"a\" : [ 1 , 2 ] }\r\n") == ["a": [1, 2]])
    }

    @Test("bridges Codable types both ways")
    func codable() throws {
        struct Sample: Codable, Equatable {
            var name: String
            var count: Int
            var ratio: Double
            var tags: [String]
            var note: String?
        }
        let sample = Sample(name: "x/y", count: 3, ratio: 0.5, tags: ["a"], note: nil)
        let value = try JSONValue(encoding: sample)
        #expect(value["name"] == "x/y")
        #expect(value["count"] == .int(3))
        #expect(try value.decode(Sample.self) == sample)
    }
}
