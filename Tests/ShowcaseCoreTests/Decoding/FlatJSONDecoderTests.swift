import Foundation
import Testing

@testable import ShowcaseCore

@Suite("Flat JSON headers")
struct FlatJSONDecoderTests {
    struct Sample: Codable, Equatable {
        var name: String
        var count: Int
        var stamp: Int64
        var small: UInt8
        var note: String?
    }

    static func header(storefront: String = "de", fetched: Int64 = 1_796_117_504_426) -> FileCache.Header {
        FileCache.Header(
            format: "showcase-roster", version: 1, artistId: 1_650_000_001, storefront: storefront,
            fetchedAtMilliseconds: fetched, resultCount: 201, appsBytes: 70069, appsFNV1a: "d4e6f4d9c4373455",
            bodyBytes: 600_499, bodyFNV1a: "6be56ebc631e2667")
    }

    static func fields(_ header: FileCache.Header) -> [String] {
        [
            header.format, String(header.version), String(header.artistId), header.storefront,
            String(header.fetchedAtMilliseconds), String(header.resultCount), String(header.appsBytes),
            header.appsFNV1a, String(header.bodyBytes), header.bodyFNV1a,
        ]
    }

    @Test("a header the cache writes reads back the same as JSONDecoder reads it")
    func agreesWithJSONDecoder() throws {
        for header in [Self.header(), Self.header(storefront: "jp", fetched: -5), Self.header(fetched: 0)] {
            let line = try FileCache.encoder.encode(header)
            let fast = try FlatJSONDecoder.decode(FileCache.Header.self, from: line)
            let reference = try JSONDecoder().decode(FileCache.Header.self, from: line)
            #expect(Self.fields(fast) == Self.fields(reference))
            #expect(Self.fields(try #require(FileCache.header(from: line))) == Self.fields(header))
        }
    }

    @Test("any other shape is refused, and the cache then reads it with JSONDecoder all the same")
    func otherShapesFallBack() throws {
        let line = String(decoding: try FileCache.encoder.encode(Self.header()), as: UTF8.self)
        let variants = [
            line.replacingOccurrences(of: ",", with: ", "),  // whitespace
            line.replacingOccurrences(of: "\"de\"", with: "\"d\\u0065\""),  // an escape
            line.replacingOccurrences(of: "\"version\":1", with: "\"version\":1.0"),  // a float
            line.replacingOccurrences(of: "}", with: ",\"extra\":[1]}"),  // nesting
            line.replacingOccurrences(of: "}", with: ",\"extra\":true}"),  // a boolean
            line.replacingOccurrences(of: "}", with: ",\"extra\":null}"),  // null
            line.replacingOccurrences(of: "\"de\"", with: "\"dé\""),  // non-ASCII
            line.replacingOccurrences(of: "}", with: ",\"version\":2}"),  // a repeated key
        ]
        for variant in variants {
            #expect(throws: (any Error).self) {
                try FlatJSONDecoder.decode(FileCache.Header.self, from: Array(variant.utf8))
            }
            let reference = try? JSONDecoder().decode(FileCache.Header.self, from: Data(variant.utf8))
            #expect(FileCache.header(from: Array(variant.utf8)).map(Self.fields) == reference.map(Self.fields))
        }
        // Whitespace and the escape still read through JSONDecoder, to the same header.
        #expect(FileCache.header(from: Array(variants[0].utf8)).map(Self.fields) == Self.fields(Self.header()))
        #expect(FileCache.header(from: Array(variants[1].utf8)).map(Self.fields) == Self.fields(Self.header()))
    }

    @Test("integers are read exactly, out-of-range ones and malformed objects are refused, never a trap")
    func integersAndMalformed() throws {
        let good = #"{"count":-9223372036854775808,"name":"x","note":"n","small":255,"stamp":9223372036854775807}"#
        let sample = try FlatJSONDecoder.decode(Sample.self, from: Array(good.utf8))
        #expect(sample == Sample(name: "x", count: Int.min, stamp: Int64.max, small: 255, note: "n"))
        let minimal = #"{"count":0,"name":"","small":0,"stamp":-1}"#
        let absent = try FlatJSONDecoder.decode(Sample.self, from: Array(minimal.utf8))
        #expect(absent == Sample(name: "", count: 0, stamp: -1, small: 0, note: nil))
        for bad in [
            #"{"count":9223372036854775808,"name":"x","small":1,"stamp":1}"#,
            #"{"count":1,"name":"x","small":256,"stamp":1}"#,
            #"{"count":1,"name":"x","small":-1,"stamp":1}"#,
            #"{"count":01,"name":"x","small":1,"stamp":1}"#,
            #"{"count":-,"name":"x","small":1,"stamp":1}"#,
            #"{"count":"1","name":"x","small":1,"stamp":1}"#,
            #"{"count":1,"name":2,"small":1,"stamp":1}"#,
            #"{"count":1,"name":"x","small":1}"#,
            #"{"count":1,"name":"x","small":1,"stamp":1}x"#,
            #"{"count":1,"name":"x","small":1,"stamp":1"#,
            #"{"count":1,"name":"x,"small":1,"stamp":1}"#,
            #"[1]"#, "", "{", "{}",
        ] {
            #expect(throws: (any Error).self) { try FlatJSONDecoder.decode(Sample.self, from: Array(bad.utf8)) }
        }
    }
}
