import ShowcaseConfig
import ShowcaseCore
import Testing

@Suite("Per-surface attribution and product pages in the configuration (SPEC §19)")
struct AttributionSurfaceTests {
    @Test("reads a campaign token per surface, every surface named")
    func campaignTokens() throws {
        let configuration = try load(
            minimalHosts + """
                attribution:
                  campaign_token: everywhere
                  campaign_tokens: {varlink: app, json: widget, html: website, email: newsletter, feed: atom,
                                    site: "site pages"}

                """)
        #expect(configuration.attribution.campaignToken == "everywhere")
        #expect(
            configuration.attribution.campaignTokens == [
                .varlink: "app", .json: "widget", .html: "website", .email: "newsletter", .feed: "atom",
                .site: "site pages",
            ])
        #expect(configuration.attribution.campaign(forHost: "a.B", on: .email) == "newsletter")
    }

    @Test("a surface not named uses campaign_token, and without it the host's default")
    func surfaceDefaults() throws {
        let configuration = try load(minimalHosts + "attribution:\n  campaign_tokens: {email: newsletter}\n")
        #expect(configuration.attribution.campaign(forHost: "com.quietharbor.NoteJar", on: .html) == "showcase-notejar")
        #expect(configuration.attribution.campaign(forHost: "com.quietharbor.NoteJar", on: .email) == "newsletter")
    }

    @Test(
        "refuses a surface's token App Store Connect would not count, at its line and column",
        arguments: ["caf\u{E9}", " lead", "caret^", String(repeating: "k", count: 31)])
    func invalidSurfaceToken(token: String) throws {
        let error = try onlyError(minimalHosts + "attribution:\n  campaign_tokens:\n    feed: \"\(token)\"\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.line == 5)
        #expect(error?.column == 11)
        #expect(error?.message.contains("'attribution.campaign_tokens.feed'") == true)
        #expect(error?.message.contains("at most 30") == true)
    }

    @Test("an unknown surface is an error with a suggestion, at the key")
    func unknownSurface() throws {
        let error = try onlyError(minimalHosts + "attribution:\n  campaign_tokens:\n    mail: newsletter\n")
        #expect(error?.code == .unknownKey)
        #expect(error?.line == 5)
        #expect(error?.column == 5)
        #expect(
            error?.message == "unknown key 'attribution.campaign_tokens.mail'; did you mean "
                + "'attribution.campaign_tokens.email'?")
    }

    @Test("reads a product page for every surface and one with surfaces of its own, lowercased")
    func productPages() throws {
        let configuration = try load(
            minimalHosts + """
                overlay:
                  product_pages:
                    1111111111: 45812C9B-C296-43D3-B6A0-7A6B2F5D9E1C
                    2222222222: {default: 11111111-2222-3333-4444-555555555555, email: aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee}
                    3333333333: {feed: 00000000-0000-0000-0000-000000000003}

                """)
        let overlay = configuration.hosts[0].overlay
        #expect(overlay.productPage(of: 1_111_111_111, on: .site) == "45812c9b-c296-43d3-b6a0-7a6b2f5d9e1c")
        #expect(overlay.productPage(of: 2_222_222_222, on: .html) == "11111111-2222-3333-4444-555555555555")
        #expect(overlay.productPage(of: 2_222_222_222, on: .email) == "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee")
        #expect(overlay.productPage(of: 3_333_333_333, on: .feed) == "00000000-0000-0000-0000-000000000003")
        #expect(overlay.productPage(of: 3_333_333_333, on: .varlink) == nil)
        #expect(overlay.productPage(of: 4_444_444_444, on: .varlink) == nil)
    }

    @Test(
        "a product page that is not a UUID is an error at its line and column",
        arguments: [
            "not-a-uuid", "45812c9b-c296-43d3-b6a0-7a6b2f5d9e1", "45812c9bc29643d3b6a07a6b2f5d9e1c",
            "45812c9b-c296-43d3-b6a0-7a6b2f5d9e1g", "{default: 12}",
        ])
    func invalidProductPage(value: String) throws {
        let error = try onlyError(minimalHosts + "overlay:\n  product_pages:\n    1111111111: \(value)\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.line == 5)
        #expect(error?.column == (value.hasPrefix("{") ? 27 : 17))
        #expect(error?.message.contains("UUID") == true)
    }

    @Test("an unknown surface in a product page is an error with a suggestion, in an overlay file at its place")
    func unknownProductPageSurface() throws {
        let found = try errors(
            minimalHosts + "overlay: o.yaml\n",
            files: ["o.yaml": "product_pages:\n  1111111111:\n    emial: 45812c9b-c296-43d3-b6a0-7a6b2f5d9e1c\n"])
        #expect(found.count == 1)
        #expect(found.first?.code == .unknownKey)
        #expect(found.first?.file.hasSuffix("/o.yaml") == true)
        #expect(found.first?.line == 3)
        #expect(found.first?.column == 5)
        #expect(
            found.first?.message == "unknown key 'product_pages.1111111111.emial'; did you mean "
                + "'product_pages.1111111111.email'?")
    }

    @Test("a host's product page for an app replaces the global one; the global ones for other apps stay")
    func mergeProductPages() throws {
        let configuration = try load(
            """
            hosts:
              - bundle_id: com.quietharbor.NoteJar
                overlay:
                  product_pages: {1111111111: {email: aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee}}
            overlay:
              product_pages:
                1111111111: 11111111-1111-1111-1111-111111111111
                2222222222: 22222222-2222-2222-2222-222222222222

            """)
        let overlay = configuration.hosts[0].overlay
        #expect(overlay.productPage(of: 1_111_111_111, on: .email) == "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee")
        #expect(overlay.productPage(of: 1_111_111_111, on: .html) == nil)
        #expect(overlay.productPage(of: 2_222_222_222, on: .html) == "22222222-2222-2222-2222-222222222222")
    }
}
