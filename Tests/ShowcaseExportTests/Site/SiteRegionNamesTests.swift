import Foundation
import ShowcaseCore
import Testing

@testable import ShowcaseExport

/// The switcher's country names from iso-codes' gettext catalogues, and the `.mo` reader under hostile files.
@Suite struct SiteRegionNamesTests {
    static let us = try! Storefront(parsing: "us")
    static let jp = try! Storefront(parsing: "jp")
    static let ca = try! Storefront(parsing: "ca")

    /// A `.mo` file holding `pairs`, in either byte order.
    static func mo(_ pairs: [(String, String)], bigEndian: Bool = false) -> [UInt8] {
        func word(_ value: Int) -> [UInt8] {
            let v = UInt32(value)
            let little = [UInt8(v & 0xff), UInt8(v >> 8 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 24)]
            return bigEndian ? little.reversed() : little
        }
        let count = pairs.count
        let originals = 28
        let translations = originals + count * 8
        var strings: [UInt8] = []
        var originalTable: [UInt8] = []
        var translationTable: [UInt8] = []
        let start = translations + count * 8
        for (id, _) in pairs {
            originalTable += word(id.utf8.count) + word(start + strings.count)
            strings += Array(id.utf8) + [0]
        }
        for (_, text) in pairs {
            translationTable += word(text.utf8.count) + word(start + strings.count)
            strings += Array(text.utf8) + [0]
        }
        return word(0x9504_12de) + word(0) + word(count) + word(originals) + word(translations) + word(0) + word(0)
            + originalTable + translationTable + strings
    }

    /// Names read from a French catalogue of `bytes` in a temporary locale folder, with the real iso-codes JSON.
    static func names(french bytes: [UInt8]) throws -> (SiteRegionNames, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: directory.file("fr/LC_MESSAGES"), withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: directory.file("fr/LC_MESSAGES/iso_3166-1.mo")))
        return (SiteRegionNames(locales: directory.path), directory)
    }

    @Test("French and Japanese names of us, jp and ca come from the system's iso-codes catalogues")
    func realCatalogues() {
        let names = SiteRegionNames()
        #expect(names.country(Self.us, language: "fr-CA") == "États-Unis")
        #expect(names.country(Self.jp, language: "fr-CA") == "Japon")
        #expect(names.country(Self.ca, language: "fr") == "Canada")
        #expect(names.country(Self.us, language: "ja-JP") == "米国")
        #expect(names.country(Self.jp, language: "ja-JP") == "日本")
        #expect(names.country(Self.ca, language: "ja") == "カナダ")
        #expect(names.country(Self.ca, language: "de-DE") == "Kanada")
        #expect(names.country(Self.us, language: "zh-Hans-CN") == "美国")
        #expect(names.country(Self.us, language: "en-US") == "United States")
    }

    @Test("our tags map to gettext's locale folders")
    func locales() {
        #expect(SiteRegionNames.gettextLocale("zh-Hans") == "zh_CN")
        #expect(SiteRegionNames.gettextLocale("zh-TW") == "zh_TW")
        #expect(SiteRegionNames.gettextLocale("pt-BR") == "pt_BR")
        #expect(SiteRegionNames.gettextLocale("pt-PT") == "pt")
        #expect(SiteRegionNames.gettextLocale("no-NO") == "nb")
        #expect(SiteRegionNames.gettextLocale("fr-CA") == "fr")
        #expect(SiteRegionNames.gettextLocale("en-GB") == nil)
        #expect(SiteRegionNames.gettextLocale("tlh") == nil)
        #expect(SiteRegionNames.autonym("en") == "English")
        #expect(SiteRegionNames.autonym("fr") == "Français")
        #expect(SiteRegionNames.autonym("zh-Hant") == "繁體中文")
    }

    @Test("a catalogue in either byte order is read; a translation equal to its msgid falls through to the next")
    func byteOrders() throws {
        for bigEndian in [false, true] {
            let bytes = Self.mo([("", "header"), ("Japan", "Japon"), ("United States", "Etats")], bigEndian: bigEndian)
            let (names, directory) = try Self.names(french: bytes)
            #expect(names.country(Self.jp, language: "fr") == "Japon")
            #expect(names.country(Self.us, language: "fr") == "Etats")
            #expect(names.country(Self.ca, language: "fr") == "Canada")
            _ = directory
        }
    }

    @Test("a truncated or hostile catalogue gives the English name, never a trap")
    func hostile() throws {
        let good = Self.mo([("Japan", "Japon")])
        var pastEnd = good
        pastEnd.replaceSubrange(32..<36, with: [0xff, 0xff, 0xff, 0x7f])  // the msgid's offset
        var hugeCount = good
        hugeCount.replaceSubrange(8..<12, with: [0xff, 0xff, 0xff, 0xff])
        var hugeLength = good
        hugeLength.replaceSubrange(28..<32, with: [0xff, 0xff, 0xff, 0xff])
        var tablePastEnd = good
        tablePastEnd.replaceSubrange(16..<20, with: [0xfc, 0xff, 0xff, 0xff])
        let invalidUTF8 = Self.mo([("Japan", "Jap\u{e9}")]).map { $0 == 0xc3 ? 0xff : $0 }
        let cases: [[UInt8]] = [
            [], [0xde], Array(good.prefix(20)), Array(good.prefix(good.count - 3)), pastEnd, hugeCount, hugeLength,
            tablePastEnd, invalidUTF8, Array(repeating: 0xff, count: 64), Array("not a catalogue".utf8),
        ]
        for bytes in cases {
            #expect(GettextCatalog.messages(bytes)["Japan"] == nil)
            let (names, directory) = try Self.names(french: bytes)
            #expect(names.country(Self.jp, language: "fr") == "Japan")
            _ = directory
        }
        let (missing, directory) = try Self.names(french: good)
        #expect(SiteRegionNames(locales: directory.path + "/absent").country(Self.jp, language: "fr") == "Japan")
        #expect(
            SiteRegionNames(locales: directory.path, countries: directory.path + "/absent.json")
                .country(Self.jp, language: "fr") == "Japan")
        #expect(missing.country(Self.jp, language: "fr") == "Japon")
    }
}
