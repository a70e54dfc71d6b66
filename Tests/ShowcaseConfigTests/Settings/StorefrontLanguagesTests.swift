import Foundation
import ShowcaseConfig
import ShowcaseCore
import Testing

@Suite("Storefront languages: {code: ca, languages: [en, fr]} entries")
struct StorefrontLanguagesTests {
    let ca = try! Storefront(parsing: "ca")

    @Test("reads a mapping entry's languages in order, lowercased, beside plain entries")
    func readsLanguages() throws {
        let configuration = try load(minimalHosts + "storefronts: [us, {code: CA, languages: [EN, fr]}, de]\n")
        #expect(configuration.storefronts.map(\.code) == ["us", "ca", "de"])
        #expect(configuration.languages[ca]?.map(\.code) == ["en", "fr"])
        #expect(configuration.languages.count == 1)
        #expect(configuration.editions.map(\.description) == ["us", "ca/en", "ca/fr", "de"])
        #expect(configuration.summary.contains("3 storefronts (us, ca/en, ca/fr, de)"))
    }

    @Test("a plain entry is one roster fetched without lang, and all stays plain")
    func plainEntries() throws {
        let configuration = try load(minimalHosts + "storefronts: [ca]\n")
        #expect(configuration.editions(of: ca) == [StorefrontEdition(ca)])
        #expect(configuration.languages.isEmpty)
        let all = try load(minimalHosts + "storefronts: all\n")
        #expect(all.storefronts == Storefront.all)
        #expect(all.editions.allSatisfy { $0.language == nil })
    }

    @Test("a locale picks the roster of its language subtag, else the first configured language")
    func localePicksEdition() throws {
        let configuration = try load(minimalHosts + "storefronts: [{code: ca, languages: [en, fr]}]\n")
        let french = StorefrontEdition(ca, language: RosterLanguage(parsing: "fr"))
        let english = StorefrontEdition(ca, language: RosterLanguage(parsing: "en"))
        #expect(configuration.edition(of: ca, locale: "fr-CA") == french)
        #expect(configuration.edition(of: ca, locale: "fr") == french)
        #expect(configuration.edition(of: ca, locale: "FR_ca") == french)
        #expect(configuration.edition(of: ca, locale: "en-CA") == english)
        #expect(configuration.edition(of: ca, locale: "de-DE") == english)
        #expect(configuration.edition(of: ca, locale: nil) == english)
        #expect(configuration.defaultEdition(of: ca) == english)
        // A storefront without languages answers its one roster whatever the locale.
        let us = try Storefront(parsing: "us")
        #expect(configuration.edition(of: us, locale: "fr") == StorefrontEdition(us))
    }

    @Test("rejects a language that is not two letters, at its line and column")
    func rejectsBadLanguage() throws {
        let error = try onlyError(minimalHosts + "storefronts:\n  - {code: ca, languages: [en, fr-CA]}\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.line == 4)
        #expect(error?.column == 32)
        #expect(error?.message.contains("'fr-CA'") == true)
        #expect(error?.message.contains("ISO 639-1 language code of two letters") == true)
    }

    @Test("rejects 9 languages at the ninth, a three-letter code and an unknown two-letter one, each where written")
    func fixtureErrors() throws {
        let found = errors(inFixture: "invalid/bad-languages.yaml")
        #expect(
            found.map { "\($0.line):\($0.column):\($0.code.rawValue)" } == [
                "5:60:invalidValue", "6:32:invalidValue", "7:32:invalidValue",
            ])
        guard found.count == 3 else { return }
        #expect(found[0].message.hasPrefix("a storefront lists at most 8 languages"))
        #expect(found[0].message.contains("has 9"))
        #expect(found[1].message.contains("ISO 639-1 language code of two letters"))
        #expect(found[1].message.contains("found 'fra'"))
        #expect(found[2].message.hasPrefix("'xx' is not an ISO 639-1 language code"))
    }

    @Test("17,576 invented languages are refused in a bounded report: the first 8 and the overflow at the ninth")
    func boundedReport() throws {
        let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
        let invented = letters.flatMap { a in letters.flatMap { b in letters.map { a + b + $0 } } }
        #expect(invented.count == 17_576)
        let found = try errors(
            minimalHosts + "storefronts: [{code: ca, languages: [\(invented.joined(separator: ", "))]}]\n")
        #expect(found.count == 9)
        #expect(found.filter { $0.message.hasPrefix("a storefront lists at most 8 languages") }.count == 1)
        #expect(found.last?.message.contains("has 17576") == true)
    }

    @Test("accepts exactly 8 languages and a code in capitals, stored lowercased")
    func acceptsEightAndCapitals() throws {
        let eight = "[en, fr, de, it, es, pt, nl, ja]"
        let configuration = try load(
            minimalHosts + "storefronts: [{code: ca, languages: \(eight)}, {code: ch, languages: [FR]}]\n")
        #expect(configuration.languages[ca]?.count == 8)
        #expect(configuration.languages[try Storefront(parsing: "ch")]?.map(\.code) == ["fr"])
    }

    @Test("rejects a repeated language, naming where it was first listed")
    func rejectsDuplicateLanguage() throws {
        let error = try onlyError(minimalHosts + "storefronts: [{code: ch, languages: [de, fr, DE]}]\n")
        #expect(error?.code == .duplicate)
        #expect(error?.line == 3)
        #expect(error?.column == 46)
        #expect(error?.message == "language 'de' is already listed at line 3, column 38; list it once")
    }

    @Test("rejects an empty language list, a missing code or languages, and an unknown key")
    func rejectsIncompleteEntries() throws {
        let empty = try onlyError(minimalHosts + "storefronts: [{code: ca, languages: []}]\n")
        #expect(empty?.code == .invalidValue)
        #expect(empty?.message.contains("is empty") == true)
        let noCode = try onlyError(minimalHosts + "storefronts: [{languages: [en]}]\n")
        #expect(noCode?.code == .missing)
        #expect(noCode?.message.contains("no 'code'") == true)
        let noLanguages = try onlyError(minimalHosts + "storefronts: [{code: ca}]\n")
        #expect(noLanguages?.code == .missing)
        let unknown = try onlyError(minimalHosts + "storefronts: [{code: ca, language: [en]}]\n")
        #expect(unknown?.code == .unknownKey)
        #expect(unknown?.column == 26)
        #expect(unknown?.message == "unknown key 'storefronts[].language'; did you mean 'storefronts[].languages'?")
        let scalar = try onlyError(minimalHosts + "storefronts: [{code: ca, languages: fr}]\n")
        #expect(scalar?.code == .typeMismatch)
    }

    @Test("a storefront listed plain and as a mapping is a duplicate, and an unknown code is still rejected")
    func duplicatesAcrossShapes() throws {
        let duplicate = try onlyError(minimalHosts + "storefronts: [ca, {code: ca, languages: [fr]}]\n")
        #expect(duplicate?.code == .duplicate)
        #expect(duplicate?.column == 26)
        let unknown = try onlyError(minimalHosts + "storefronts: [{code: zz, languages: [en]}]\n")
        #expect(unknown?.code == .invalidValue)
        #expect(unknown?.column == 22)
    }
}
