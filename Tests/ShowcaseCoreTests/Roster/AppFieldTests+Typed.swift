import Foundation
import Testing

@testable import ShowcaseCore

/// An upstream field of another type than text, declared the way `contentAdvisoryRating` is: the row's value is
/// read only in its type, stored and cached as its shortest text, served and carried in `App`'s JSON form in its
/// type again, so a typed upstream field costs its declaration alone.
@Suite("The field table's typed upstream values")
struct AppFieldTypedTests {
    static let count = AppField.upstream("ratingCount", .int, upstreamKey: "userRatingCountForCurrentVersion")
    static let rating = AppField.upstream("rating", .float, upstreamKey: "averageUserRatingForCurrentVersion")

    /// Reads one field from a lookup row's JSON the way ``LookupRow`` does.
    struct Row: Decodable {
        static let field = CodingUserInfoKey(rawValue: "field")!
        let text: String?

        init(from decoder: any Decoder) throws {
            let field = try #require(decoder.userInfo[Self.field] as? AppField)
            text = field.upstreamText(in: try decoder.container(keyedBy: AppField.Key.self))
        }
    }

    static func read(_ field: AppField, _ json: String) throws -> String? {
        let decoder = JSONDecoder()
        decoder.userInfo[Row.field] = field
        return try decoder.decode(Row.self, from: Data(json.utf8)).text
    }

    @Test(
        "an integer field takes the row's integer only",
        arguments: [
            (#"{"userRatingCountForCurrentVersion":1204}"#, "1204"),
            (#"{"userRatingCountForCurrentVersion":"1204"}"#, nil),
            (#"{"userRatingCountForCurrentVersion":12.5}"#, nil), (#"{"userRatingCountForCurrentVersion":null}"#, nil),
            ("{}", nil),
        ] as [(String, String?)])
    func integerFromTheRow(row: String, stored: String?) throws {
        #expect(try Self.read(Self.count, row) == stored)
    }

    @Test(
        "a number field takes the row's number in its shortest text, never a text or a huge exponent",
        arguments: [
            (#"{"averageUserRatingForCurrentVersion":4.5}"#, "4.5"),
            (#"{"averageUserRatingForCurrentVersion":4}"#, "4.0"),
            (#"{"averageUserRatingForCurrentVersion":"4.5"}"#, nil),
            (#"{"averageUserRatingForCurrentVersion":1e999}"#, nil),
        ] as [(String, String?)])
    func numberFromTheRow(row: String, stored: String?) throws {
        #expect((try? Self.read(Self.rating, row)) ?? nil == stored)
    }

    @Test("a stored text is served in the field's type, and one that is not of it is not stored from a cache line")
    func servedInItsType() throws {
        var app = try #require(Fixtures.roster("us").apps.first)
        app.upstreamTexts = ["ratingCount": "1204", "rating": "4.5"]
        let resolved = ResolvedApp(app: app, storeUrl: app.storeUrl, tagline: nil)
        #expect(Self.count.value(of: resolved) == .int(1204))
        #expect(Self.rating.value(of: resolved) == .float(4.5))
        #expect(Self.count.type == .int && Self.rating.type == .float && Self.count.isOptional)
        #expect(Self.count.canStore("1204") && !Self.count.canStore("12a") && !Self.count.canStore("4.5"))
        #expect(Self.rating.canStore("4.5") && !Self.rating.canStore("nan") && !Self.rating.canStore("inf"))
        #expect(try #require(AppField.named("contentAdvisoryRating")).canStore("12+"))
    }

    @Test("App's JSON form writes a typed value as a JSON number and reads it back as the same stored text")
    func jsonFormInItsType() throws {
        struct Form: Codable {
            static let field = CodingUserInfoKey(rawValue: "field")!
            var text: String?
            init(text: String) { self.text = text }
            init(from decoder: any Decoder) throws {
                let field = try #require(decoder.userInfo[Self.field] as? AppField)
                text = try field.decodeStored(from: decoder.container(keyedBy: AppField.Key.self))
            }
            func encode(to encoder: any Encoder) throws {
                let field = try #require(encoder.userInfo[Self.field] as? AppField)
                var container = encoder.container(keyedBy: AppField.Key.self)
                try field.encode(stored: text!, into: &container)
            }
        }
        for (field, text, json) in [
            (Self.count, "1204", #"{"ratingCount":1204}"#), (Self.rating, "4.5", #"{"rating":4.5}"#),
        ] {
            let encoder = JSONEncoder()
            encoder.userInfo[Form.field] = field
            let data = try encoder.encode(Form(text: text))
            #expect(String(decoding: data, as: UTF8.self) == json)
            let decoder = JSONDecoder()
            decoder.userInfo[Form.field] = field
            #expect(try decoder.decode(Form.self, from: data).text == text)
        }
    }
}
