import ShowcaseConfig
import ShowcaseCore
import Testing

@Suite("The overlay's labels (SPEC §19)")
struct OverlayLabelsTests {
    @Test("reads labels by language tag, any case and _ for -, and they win over the built-in table")
    func reads() throws {
        let configuration = try load(
            minimalHosts + """
                overlay:
                  labels:
                    fr: {more_from: "Aussi de {developer}", feed_removed: "{name} a quitté la boutique"}
                    PT_br: {support: Ajuda}

                """)
        let labels = configuration.hosts[0].overlay.labels
        #expect(labels.text(.moreFrom, language: "fr-CA", ["developer": "D"]) == "Aussi de D")
        #expect(labels.text(.feedRemoved, language: "fr", ["name": "X"]) == "X a quitté la boutique")
        #expect(labels.text(.support, language: "pt-BR") == "Ajuda")
        #expect(labels.text(.support, language: "pt-PT") == "Suporte")
        #expect(configuration.hosts[0].overlay.entryCount == 3)
    }

    @Test("a host's label for a key replaces the global one; the global ones for other keys and languages stay")
    func merge() throws {
        let configuration = try load(
            """
            hosts:
              - bundle_id: com.quietharbor.NoteJar
                overlay:
                  labels: {fr: {support: Aide}}
            overlay:
              labels:
                fr: {support: Assistance technique, privacy: Confidentialité}
                de: {support: Hilfe}

            """)
        let labels = configuration.hosts[0].overlay.labels
        #expect(labels.text(.support, language: "fr") == "Aide")
        #expect(labels.text(.privacy, language: "fr") == "Confidentialité")
        #expect(labels.text(.support, language: "de") == "Hilfe")
    }

    @Test("an unknown key is an error at its line and column with the key it most likely meant")
    func unknownKey() throws {
        let found = try errors(
            minimalHosts + "overlay: o.yaml\n",
            files: ["o.yaml": "labels:\n  fr:\n    mor_from: Aussi de {developer}\n"])
        #expect(found.count == 1)
        #expect(found.first?.code == .unknownKey)
        #expect(found.first?.file.hasSuffix("/o.yaml") == true)
        #expect(found.first?.line == 3 && found.first?.column == 5)
        #expect(found.first?.message == "unknown key 'labels.fr.mor_from'; did you mean 'labels.fr.more_from'?")
    }

    @Test("a placeholder the key does not fill is an error naming the ones it does")
    func unknownPlaceholder() throws {
        let error = try onlyError(minimalHosts + "overlay:\n  labels:\n    fr: {more_from: \"Aussi de {studio}\"}\n")
        #expect(error?.code == .invalidValue)
        #expect(error?.line == 5 && error?.column == 21)
        #expect(error?.message == "'labels.fr.more_from' names an unknown placeholder {studio}; it can use {developer}")
        let typo = try onlyError(minimalHosts + "overlay:\n  labels:\n    fr: {feed_removed: \"{nme} est parti\"}\n")
        #expect(typo?.message == "'labels.fr.feed_removed' names an unknown placeholder {nme}; did you mean {name}?")
        let none = try onlyError(minimalHosts + "overlay:\n  labels:\n    fr: {support: \"Aide {name}\"}\n")
        #expect(none?.message == "'labels.fr.support' names an unknown placeholder {name}; it takes none")
    }

    @Test(
        "a tag that is none, a duplicate tag, a text too long, empty or with a line break are errors",
        arguments: [
            ("    français: {support: Aide}\n", ConfigError.Code.invalidValue, "language tag"),
            ("    fr: {support: Aide}\n    FR: {support: Aide}\n", .duplicate, "'fr' and 'FR', the same language"),
            ("    fr: {support: \"\(String(repeating: "a", count: 201))\"}\n", .limitExceeded, "at most 200"),
            ("    fr: {support: \"\"}\n", .typeMismatch, "expected the text of 'labels.fr.support'"),
            ("    fr: {support: \"Aide\\nen ligne\"}\n", .invalidValue, "control character"),
            ("    fr: [support]\n", .typeMismatch, "expected a mapping of keys for 'labels.fr'"),
        ])
    func invalid(entry: String, code: ConfigError.Code, words: String) throws {
        let error = try onlyError(minimalHosts + "overlay:\n  labels:\n" + entry)
        #expect(error?.code == code)
        #expect(error?.message.contains(words) == true, "\(error?.message ?? "")")
    }
}
