import ShowcaseCore
import Testing

@Suite("Attribution")
struct AttributionTests {
    let url = "https://apps.apple.com/us/app/knotbook/id1641000102?uo=4"

    @Test("with a provider token store URLs gain pt, ct and mt=8 and keep Apple's uo=4")
    func addsTokens() {
        let attributed = Attribution(providerToken: "1234567").apply(to: url, hostBundleId: "com.quietharbor.TideLog")
        #expect(
            attributed == "https://apps.apple.com/us/app/knotbook/id1641000102?uo=4&pt=1234567&ct=showcase-tidelog&mt=8"
        )
    }

    @Test("a configured campaign token replaces the default one")
    func campaignToken() {
        let attributed = Attribution(providerToken: "1", campaignToken: "newsletter").apply(
            to: url, hostBundleId: "x.Y")
        #expect(attributed.hasSuffix("uo=4&pt=1&ct=newsletter&mt=8"))
    }

    @Test("without a provider token the URL is untouched")
    func untouched() {
        #expect(Attribution(campaignToken: "x").apply(to: url, hostBundleId: "a.B") == url)
        #expect(Attribution(providerToken: "").apply(to: url, hostBundleId: "a.B") == url)
    }

    @Test("tokens already in the URL are replaced, not duplicated")
    func replacesExisting() {
        let attributed = Attribution(providerToken: "2").apply(to: url + "&pt=old&mt=12", hostBundleId: "a.B")
        #expect(attributed == "https://apps.apple.com/us/app/knotbook/id1641000102?uo=4&pt=2&ct=showcase-b&mt=8")
    }

    @Test("the default campaign is showcase- and the host bundle id's last component, lowercased")
    func defaultCampaign() {
        #expect(Attribution().campaign(forHost: "com.example.NoteJar") == "showcase-notejar")
    }
}
