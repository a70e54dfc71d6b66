import Foundation
import ShowcaseCore
import Testing

@Suite("Lookup requests")
struct LookupRequestTests {
    let endpoint = URL(string: "https://itunes.apple.com/lookup")!

    @Test("the roster request always carries entity=software, limit=200 and the alpha-2 country")
    func rosterRequestCarriesEntity() throws {
        let request = LookupRequest.roster(artistId: 1_641_000_001, storefront: try Storefront(parsing: "JPN"))
        #expect(
            request.url(endpoint: endpoint).absoluteString
                == "https://itunes.apple.com/lookup?id=1641000001&entity=software&limit=200&country=jp")
    }

    @Test("the identity request carries only the bundle id and the country")
    func identityRequest() throws {
        let request = LookupRequest.identity(bundleId: "com.quietharbor.TideLog", storefront: try .init(parsing: "de"))
        #expect(
            request.url(endpoint: endpoint).absoluteString
                == "https://itunes.apple.com/lookup?bundleId=com.quietharbor.TideLog&country=de")
    }

    @Test("the endpoint is configurable and its own query never leaks into requests")
    func loopbackEndpoint() throws {
        let loopback = URL(string: "http://127.0.0.1:8123/lookup?tracking=1")!
        let url = LookupRequest.roster(artistId: 7, storefront: .unitedStates).url(endpoint: loopback)
        #expect(url.absoluteString == "http://127.0.0.1:8123/lookup?id=7&entity=software&limit=200&country=us")
    }

    @Test("a bundle id is percent-encoded so it cannot inject query items")
    func bundleIdIsEncoded() {
        let url = LookupRequest.identity(bundleId: "a&entity=x+y", storefront: .unitedStates).url(endpoint: endpoint)
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)!.queryItems!
        #expect(items.map(\.name) == ["bundleId", "country"])
        #expect(items.first?.value == "a&entity=x+y")
    }
}
