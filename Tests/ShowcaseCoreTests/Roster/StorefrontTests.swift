import ShowcaseCore
import Testing

@Suite("Storefronts")
struct StorefrontTests {
    @Test("an alpha-3 code in any case resolves to its lowercase alpha-2")
    func alpha3ResolvesToAlpha2() throws {
        #expect(try Storefront(parsing: "DEU").code == "de")
        #expect(try Storefront(parsing: "jpn").code == "jp")
        #expect(try Storefront(parsing: "Usa").alpha3 == "USA")
        #expect(try Storefront(parsing: " GB ").name == "United Kingdom")
    }

    @Test("an alpha-2 code in any case is accepted")
    func alpha2AnyCase() throws {
        #expect(try Storefront(parsing: "DE") == Storefront(parsing: "de"))
    }

    @Test("zz is rejected with an error that names it")
    func zzIsRejected() {
        #expect(throws: StorefrontError(text: "zz", reason: .unknownCode)) { try Storefront(parsing: "zz") }
        do {
            _ = try Storefront(parsing: "zz")
        } catch {
            #expect(error.description.contains("'zz'"))
        }
    }

    @Test("a storefront's English name is rejected with its code, which it suggests")
    func nameSuggestsCode() {
        #expect(throws: StorefrontError(text: "germany", reason: .name(code: "de", country: "Germany"))) {
            try Storefront(parsing: "germany")
        }
        #expect(
            StorefrontError(text: "United Kingdom", reason: .name(code: "gb", country: "United Kingdom")).description
                == "'United Kingdom' is a country's name, not a code: United Kingdom's storefront is 'gb'")
        #expect(throws: StorefrontError(text: "Andorra", reason: .unknownCode)) { try Storefront(parsing: "Andorra") }
    }

    @Test("a real country without an App Store storefront is rejected, not replaced by us")
    func nonStorefrontCountryIsRejected() {
        #expect(throws: StorefrontError(text: "AND", reason: .noAppStore(country: "Andorra"))) {
            try Storefront(parsing: "AND")
        }
        #expect(throws: StorefrontError.self) { try Storefront(parsing: "kp") }
    }

    @Test("empty and over-long input is rejected")
    func garbageIsRejected() {
        #expect(throws: StorefrontError.self) { try Storefront(parsing: "") }
        #expect(throws: StorefrontError.self) { try Storefront(parsing: "germany") }
    }

    @Test("the table lists about 175 storefronts, sorted and unique")
    func allStorefronts() {
        let all = Storefront.all
        #expect((165...180).contains(all.count))
        #expect(all == all.sorted())
        #expect(Set(all.map(\.code)).count == all.count)
        #expect(Set(all.map(\.alpha3)).count == all.count)
        #expect(all.allSatisfy { $0.code.count == 2 && $0.alpha3.count == 3 && $0.code == $0.code.lowercased() })
    }

    @Test("every storefront in the table parses back from both its codes")
    func roundTrip() throws {
        for storefront in Storefront.all {
            #expect(try Storefront(parsing: storefront.alpha3) == storefront)
            #expect(try Storefront(parsing: storefront.code.uppercased()).alpha3 == storefront.alpha3)
        }
    }

    @Test(
        "the primary language is the storefront's language, not its country code",
        arguments: [("jp", "ja"), ("de", "de"), ("us", "en"), ("fr", "fr"), ("br", "pt"), ("at", "de"), ("kr", "ko")])
    func primaryLanguage(code: String, language: String) throws {
        #expect(try Storefront(parsing: code).primaryLanguage == language)
    }
}
