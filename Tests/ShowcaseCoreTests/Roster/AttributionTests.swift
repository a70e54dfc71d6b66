import ShowcaseCore
import Testing

@Suite("Attribution")
struct AttributionTests {
    let url = "https://apps.apple.com/us/app/knotbook/id1641000102?uo=4"

    @Test("with a provider token store URLs gain pt, ct and mt=8 and keep Apple's uo=4")
    func addsTokens() {
        let attributed = Attribution(providerToken: "1234567").apply(
            to: url, platform: .ios, hostBundleId: "com.quietharbor.TideLog")
        #expect(
            attributed == "https://apps.apple.com/us/app/knotbook/id1641000102?uo=4&pt=1234567&ct=showcase-tidelog&mt=8"
        )
    }

    @Test("a configured campaign token replaces the default one")
    func campaignToken() {
        let attributed = Attribution(providerToken: "1", campaignToken: "newsletter").apply(
            to: url, platform: .ios, hostBundleId: "x.Y")
        #expect(attributed.hasSuffix("uo=4&pt=1&ct=newsletter&mt=8"))
    }

    @Test("without a provider token the URL is untouched")
    func untouched() {
        #expect(Attribution(campaignToken: "x").apply(to: url, platform: .ios, hostBundleId: "a.B") == url)
        #expect(Attribution(providerToken: "").apply(to: url, platform: .ios, hostBundleId: "a.B") == url)
    }

    @Test("tokens already in the URL are replaced, not duplicated")
    func replacesExisting() {
        let attributed = Attribution(providerToken: "2").apply(
            to: url + "&pt=old&mt=12", platform: .ios, hostBundleId: "a.B")
        #expect(attributed == "https://apps.apple.com/us/app/knotbook/id1641000102?uo=4&pt=2&ct=showcase-b&mt=8")
    }

    @Test("the default campaign is showcase- and the host bundle id's last component, lowercased")
    func defaultCampaign() {
        #expect(Attribution().campaign(forHost: "com.example.NoteJar") == "showcase-notejar")
    }

    @Test("a Mac app's link carries mt=12 so the Mac App Store opens it, an iOS app's mt=8")
    func macMediaType() {
        let mac = "https://apps.apple.com/us/app/knotbook-desk/id1641000180?mt=12&uo=4"
        let attributed = Attribution(providerToken: "9").apply(to: mac, platform: .macos, hostBundleId: "a.B")
        #expect(attributed == "https://apps.apple.com/us/app/knotbook-desk/id1641000180?uo=4&pt=9&ct=showcase-b&mt=12")
        let ios = Attribution(providerToken: "9").apply(to: url, platform: .ios, hostBundleId: "a.B")
        #expect(ios.hasSuffix("&mt=8"))
    }

    @Test("the default campaign is cut to App Store Connect's 30 characters")
    func defaultCampaignCut() {
        let campaign = Attribution().campaign(forHost: "com.example.AVeryLongApplicationNameIndeed")
        #expect(campaign == "showcase-averylongapplicationn")
        #expect(campaign.count == 30)
        #expect(Attribution.isAcceptedCampaignToken(campaign))
    }

    @Test("campaign tokens follow App Store Connect's character set and length")
    func campaignRule() {
        for accepted in [
            "newsletter", "spring sale", "a", "x[1]/y\\z-~+=<>:;,._'", "\"*&$%#@?!|{}()",
            String(repeating: "k", count: 30),
        ] {
            #expect(Attribution.isAcceptedCampaignToken(accepted), "\(accepted)")
        }
        for refused in [
            "", " lead", "trail ", "caf\u{E9}", "tab\there", "back`tick", "caret^", String(repeating: "k", count: 31),
        ] {
            #expect(!Attribution.isAcceptedCampaignToken(refused), "\(refused)")
        }
    }
}

@Suite("Attribution per surface (SPEC §19)")
struct AttributionSurfaceTests {
    let url = "https://apps.apple.com/us/app/knotbook/id1641000102?uo=4"

    @Test("each surface's link carries its own campaign token; others the shared one")
    func surfaceTokens() {
        let attribution = Attribution(
            providerToken: "1", campaignToken: "shared", campaignTokens: [.email: "newsletter", .feed: "atom"])
        #expect(attribution.apply(to: url, platform: .ios, hostBundleId: "a.B", on: .email).contains("&ct=newsletter&"))
        #expect(attribution.apply(to: url, platform: .ios, hostBundleId: "a.B", on: .feed).contains("&ct=atom&"))
        #expect(attribution.apply(to: url, platform: .ios, hostBundleId: "a.B", on: .html).contains("&ct=shared&"))
        #expect(attribution.apply(to: url, platform: .ios, hostBundleId: "a.B").contains("&ct=shared&"))
    }

    @Test("a product page adds ppid, with or without a provider token, replacing one already there")
    func productPage() {
        let page = "45812c9b-c296-43d3-b6a0-7a6b2f5d9e1c"
        #expect(
            Attribution(providerToken: "1").apply(to: url, platform: .ios, hostBundleId: "a.B", productPage: page)
                == url + "&pt=1&ct=showcase-b&mt=8&ppid=" + page)
        #expect(
            Attribution().apply(to: url + "&ppid=old", platform: .ios, hostBundleId: "a.B", productPage: page)
                == url + "&ppid=" + page)
    }

    @Test("an overlay's product page reaches the resolved app's store URL on its surface only")
    func resolvedProductPage() {
        let overlay = Overlay(productPages: [
            7: ProductPage(bySurface: [.email: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"])
        ])
        #expect(overlay.productPage(of: 7, on: .email) == "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee")
        #expect(overlay.productPage(of: 7, on: .varlink) == nil)
        #expect(ProductPage.isUUID("45812C9B-c296-43d3-b6a0-7a6b2f5d9e1c"))
        #expect(!ProductPage.isUUID("45812c9b-c296-43d3-b6a0-7a6b2f5d9e1c-"))
        #expect(!ProductPage.isUUID("45812c9b-c296-43d3-b6a0-7a6b2f5d9e1\u{FF43}"))
    }
}
