import ShowcaseCore
import Testing

@Suite("Labels: the words showcased writes, in the document's language (SPEC §19)")
struct LabelsTests {
    let labels = Labels.builtIn

    @Test("a tag finds its language's text through region and case; an unknown language reads English")
    func lookup() {
        let values = ["name": "Lanternlight", "price": "1,99 $", "previous": "Gratuit"]
        #expect(
            labels.text(.feedPrice, language: "fr-CA", values) == "Lanternlight\u{00A0}: 1,99 $ (auparavant Gratuit)")
        #expect(
            labels.text(.feedRemoved, language: "FR_ca", ["name": "Casse-têtes"]) == "Casse-têtes n’est plus disponible"
        )
        #expect(labels.text(.feedRemoved, language: "tlh", ["name": "X"]) == "X is no longer listed")
        #expect(labels.text(.feedRemoved, language: "", ["name": "X"]) == "X is no longer listed")
        #expect(labels.text(.whatsNew, language: "en-GB") == "What’s new")
    }

    @Test("Chinese by region reaches its script, Norwegian Bokmål reads no, pt-PT reads pt and pt-BR its own")
    func aliases() {
        #expect(labels.text(.privacy, language: "zh-CN") == "隐私政策")
        #expect(labels.text(.privacy, language: "zh") == "隐私政策")
        #expect(labels.text(.privacy, language: "zh-TW") == "隱私權政策")
        #expect(labels.text(.privacy, language: "zh_HK") == "隱私權政策")
        #expect(labels.text(.privacy, language: "zh-Hant-MO") == "隱私權政策")
        #expect(labels.text(.privacy, language: "zh-Hans-SG") == "隐私政策")
        #expect(labels.text(.support, language: "nb-NO") == "Kundestøtte")
        #expect(labels.text(.support, language: "nn") == "Kundestøtte")
        #expect(labels.text(.support, language: "iw-IL") == "תמיכה")
        #expect(labels.text(.allApps, language: "pt-PT", ["developer": "D"]) == "Todas as apps de D")
        #expect(labels.text(.allApps, language: "pt-BR", ["developer": "D"]) == "Todos os apps de D")
        #expect(labels.text(.allApps, language: "pt-br", ["developer": "D"]) == "Todos os apps de D")
    }

    @Test("an overlay label wins over the table for its tag and the tags below it, and only there")
    func overrides() {
        let custom = Labels(overrides: ["FR": [.moreFrom: "Aussi de {developer}"], "fr_CA": [.support: "Aide"]])
        #expect(custom.text(.moreFrom, language: "fr-CA", ["developer": "D"]) == "Aussi de D")
        #expect(custom.text(.support, language: "fr-CA") == "Aide")
        #expect(custom.text(.support, language: "fr-FR") == "Assistance")
        #expect(custom.text(.moreFrom, language: "de", ["developer": "D"]) == "Mehr von D")
        let chinese = Labels(overrides: ["zh-TW": [.support: "客服"]])
        #expect(chinese.text(.support, language: "zh-Hant-TW") == "客服")
        #expect(chinese.text(.support, language: "zh-HK") == "支援")
    }

    @Test("placeholders fill in one pass: a value that reads like a placeholder is never filled again")
    func singlePass() {
        let values = ["name": "{price} {previous}", "price": "€1", "previous": "{name}"]
        #expect(labels.text(.feedPrice, language: "en", values) == "{price} {previous}: €1 (was {name})")
        #expect(LabelText.filled("{name} {missing} { x } {Name} {", ["name": "A"]) == "A {missing} { x } {Name} {")
        #expect(LabelText.placeholders(in: "{a}{b_2} {C} {} {a") == ["a", "b_2"])
    }

    @Test("ar, he, fa and ur are right to left, whatever the case or region; nothing else is")
    func direction() {
        for tag in ["ar", "ar-SA", "AR_ae", "he", "he-IL", "iw", "fa-IR", "ur"] {
            #expect(Labels.isRightToLeft(tag), "\(tag)")
            #expect(Labels.direction(tag) == "rtl")
        }
        for tag in ["en", "fr-CA", "hi", "", "arn", "zh-Hant"] {
            #expect(!Labels.isRightToLeft(tag), "\(tag)")
        }
    }
}
