import Foundation
import Testing

@testable import ShowcaseCore

@Suite("The built-in label table (SPEC §19)")
struct LabelTableTests {
    @Test("every listed language has every key, with exactly the English placeholders")
    func everyLanguageEveryKey() {
        #expect(LabelTable.languages.count == 33)
        for key in LabelKey.allCases {
            let english = Set(LabelText.placeholders(in: key.english))
            let translations = LabelTable.table[key] ?? [:]
            #expect(Set(translations.keys) == Set(LabelTable.languages), "\(key.rawValue)")
            for language in LabelTable.languages {
                guard let text = translations[language] else {
                    Issue.record("\(key.rawValue) has no \(language) text")
                    continue
                }
                #expect(Set(LabelText.placeholders(in: text)) == english, "\(key.rawValue) in \(language): \(text)")
                #expect(!text.contains("{ ") && text.filter { $0 == "{" }.count == text.filter { $0 == "}" }.count)
                #expect(text.trimmingWhitespace() == text && !text.isEmpty)
            }
        }
    }

    @Test("each block of the table file opens with its key's English and note, as a translator reads them")
    func translatorLinesMatchTheKeys() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ShowcaseCore/Text/LabelTable.swift")
        let source = try String(contentsOf: file, encoding: .utf8)
        for key in LabelKey.allCases {
            let english = key.english.replacingOccurrences(of: "\"", with: "\\\"")
            #expect(source.contains("// \(key.rawValue) — en: \"\(english)\"\n        //   \(key.note)\n"), "\(key)")
        }
    }

    @Test("every language reads differently from English somewhere: no block was left as a copy")
    func translated() {
        for language in LabelTable.languages where language != "en" {
            let differing = LabelKey.allCases.filter { LabelTable.table[$0]?[language] != $0.english }
            #expect(differing.count > LabelKey.allCases.count / 2, "\(language)")
        }
    }
}
