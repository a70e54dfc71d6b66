import Foundation
import ShowcaseCore
import Testing

@testable import ShowcaseExport

/// Documents and rows for the web renderers' tests, hostile ones included.
enum WebSamples {
    static let ca = try! Storefront(parsing: "ca")

    static func document(
        _ apps: [ExportedApp], storefront: Storefront = Samples.us, platform: Platform = .ios,
        language: String? = nil
    ) -> ExportDocument {
        ExportDocument(
            host: Samples.host, storefront: storefront, platform: platform, language: language, revision: 1,
            revisedAt: Samples.revisedAt, apps: apps)
    }

    static func row(
        _ id: Int, _ name: String, tagline: String? = nil, storeUrl: String? = nil, iconUrl: String? = nil,
        icons: [Int: String] = [:], genreId: Int? = 6002, price: Double? = 0, currency: String? = "USD",
        formattedPrice: String? = "Free", platform: Platform = .ios
    ) -> WebListing {
        WebListing(
            id: id, name: name, storeUrl: storeUrl ?? "https://apps.apple.com/us/app/id\(id)?uo=4",
            iconUrl: iconUrl ?? "https://is1-ssl.mzstatic.com/\(id)/512x512bb.jpg", icons: icons, genreId: genreId,
            tagline: tagline, formattedPrice: formattedPrice, price: price, currency: currency, platform: platform)
    }

    /// What an overlay or a poisoned upstream could put in a name or tagline.
    static let hostile = #"</a></li><script>alert("x")</script><img src=x onerror='y'> & </script><!--"#
}

/// A rendering as text.
func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// The JSON-LD of a fragment, parsed; fails the test when there is none or it is not JSON.
func structuredData(_ fragment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
    -> [String: Any]
{
    let open = try #require(fragment.range(of: "<script type=\"application/ld+json\">"), sourceLocation: sourceLocation)
    let close = try #require(
        fragment.range(of: "</script>", range: open.upperBound..<fragment.endIndex), sourceLocation: sourceLocation)
    let json = Data(fragment[open.upperBound..<close.lowerBound].utf8)
    return try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any], sourceLocation: sourceLocation)
}

/// The `SoftwareApplication`s of a fragment's JSON-LD, in list order.
func softwareApplications(_ fragment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws
    -> [[String: Any]]
{
    let list = try structuredData(fragment, sourceLocation: sourceLocation)
    let items = try #require(list["itemListElement"] as? [[String: Any]], sourceLocation: sourceLocation)
    return try items.map { try #require($0["item"] as? [String: Any], sourceLocation: sourceLocation) }
}

/// How often `needle` occurs in `haystack`.
func occurrences(of needle: String, in haystack: String) -> Int { haystack.components(separatedBy: needle).count - 1 }
