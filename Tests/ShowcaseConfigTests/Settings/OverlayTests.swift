import Foundation
import ShowcaseConfig
import ShowcaseCore
import Testing

@Suite("Overlays")
struct OverlayTests {
    @Test("reads order, excluded and both tagline forms from an overlay file")
    func overlayFile() throws {
        let overlay = try ConfigLoader.loadOverlay(path: fixture("valid/overlays/global.yaml"))
        #expect(overlay.order == [1_111_111_111, 2_222_222_222])
        #expect(overlay.excluded == [9_999_999_999])
        #expect(overlay.taglines[1_111_111_111] == .plain("Global one"))
        #expect(
            overlay.taglines[2_222_222_222]
                == .localized(default: "Coffee, dialled in", byLocale: ["de": "Kaffee, eingestellt"]))
    }

    @Test("reads an empty overlay file as the empty overlay")
    func emptyOverlayFile() throws {
        let directory = try TemporaryDirectory(files: ["o.yaml": "# cleared\n"])
        #expect(try ConfigLoader.loadOverlay(path: directory.file("o.yaml")) == .empty)
    }

    @Test("reports every error of an overlay file loaded on its own")
    func overlayFileErrors() throws {
        let path = fixture("invalid/overlays/bad.yaml")
        let error = #expect(throws: ConfigErrors.self) { try ConfigLoader.loadOverlay(path: path) }
        #expect(error?.errors.count == 3)
        #expect(error?.errors.allSatisfy { $0.file == path } == true)
    }

    @Test("reads a tagline without a default, keyed by locale tags")
    func localeOnlyTagline() throws {
        let directory = try TemporaryDirectory(files: ["o.yaml": "taglines:\n  7:\n    pt-BR: Olá\n    zh_Hant: 你好\n"])
        let overlay = try ConfigLoader.loadOverlay(path: directory.file("o.yaml"))
        #expect(overlay.taglines[7] == .localized(default: nil, byLocale: ["pt-BR": "Olá", "zh_Hant": "你好"]))
    }

    @Test("refuses two tagline keys of one app that are the same locale after normalisation")
    func equalAfterNormalisation() throws {
        let directory = try TemporaryDirectory(files: ["o.yaml": "taglines:\n  7:\n    pt_BR: A\n    PT-br: B\n"])
        let error = #expect(throws: ConfigErrors.self) { try ConfigLoader.loadOverlay(path: directory.file("o.yaml")) }
        #expect(error?.errors.count == 1)
        #expect(error?.first.code == .duplicate)
        #expect(error?.first.line == 4)
        #expect(error?.first.message == "the tagline of 7 has 'pt_BR' and 'PT-br', the same locale; keep one")
    }

    @Test("refuses an id both pinned and excluded, and ids listed twice")
    func contradictions() throws {
        let directory = try TemporaryDirectory(files: ["o.yaml": "order: [1, 2, 1]\nexcluded: [2, 3, 3]\n"])
        let error = #expect(throws: ConfigErrors.self) { try ConfigLoader.loadOverlay(path: directory.file("o.yaml")) }
        #expect(
            error?.errors.map { "\($0.line):\($0.column):\($0.code.rawValue)" } == [
                "1:15:duplicate", "2:12:invalidValue", "2:18:duplicate",
            ])
    }

    @Test("refuses empty or null taglines")
    func emptyTaglines() throws {
        let directory = try TemporaryDirectory(files: ["o.yaml": "taglines:\n  1: \"\"\n  2: ~\n  3: {}\n  4: [a]\n"])
        let error = #expect(throws: ConfigErrors.self) { try ConfigLoader.loadOverlay(path: directory.file("o.yaml")) }
        #expect(error?.errors.map(\.line) == [2, 3, 4, 5])
        #expect(error?.errors.allSatisfy { $0.code == .typeMismatch } == true)
    }

    @Test("puts a host's pins first, then the global pins it does not repeat")
    func mergeOrder() {
        let global = Overlay(order: [1, 2, 3])
        let host = Overlay(order: [3, 4])
        #expect(host.merged(over: global).order == [3, 4, 1, 2])
    }

    @Test("excludes what either overlay excludes")
    func mergeExcluded() {
        let merged = Overlay(excluded: [5]).merged(over: Overlay(excluded: [6]))
        #expect(merged.excluded == [5, 6])
    }

    @Test("lets the host's tagline replace the global one for the same app, keeping the rest")
    func mergeTaglines() {
        let global = Overlay(taglines: [1: .localized(default: "g", byLocale: ["de": "G"]), 2: .plain("two")])
        let host = Overlay(taglines: [1: .plain("host")])
        let merged = host.merged(over: global)
        #expect(merged.taglines == [1: .plain("host"), 2: .plain("two")])
    }

    @Test("merges each host's overlay file over the global overlay file")
    func perHostMerge() throws {
        let configuration = try ConfigLoader.load(path: fixture("valid/full.yaml"), defaults: testDefaults)
        let noteJar = configuration.hosts[0]
        #expect(noteJar.ownOverlay?.order == [2_222_222_222, 3_333_333_333])
        #expect(noteJar.overlay.order == [2_222_222_222, 3_333_333_333, 1_111_111_111])
        #expect(noteJar.overlay.excluded == [8_888_888_888, 9_999_999_999])
        #expect(noteJar.overlay.taglines[2_222_222_222] == .plain("Brew notes, by the makers of NoteJar"))
        #expect(noteJar.overlay.taglines[1_111_111_111] == .plain("Global one"))
        let brewlog = configuration.hosts[1]
        #expect(brewlog.ownOverlay == nil)
        #expect(brewlog.overlay == configuration.overlay)
    }

    @Test("reads inline overlays at the top level and per host")
    func inlineOverlays() throws {
        let configuration = try ConfigLoader.load(path: fixture("valid/inline-overlay.yaml"), defaults: testDefaults)
        #expect(configuration.overlay == Overlay(order: [4_444_444_444], taglines: [4_444_444_444: .plain("Inline")]))
        #expect(configuration.overlayFile == nil)
        #expect(configuration.hosts[0].overlay.excluded == [5_555_555_555])
        #expect(configuration.hosts[0].overlay.order == [4_444_444_444])
        #expect(configuration.overlayFiles.isEmpty)
    }

    @Test("reads an overlay file shared by several hosts once, reporting its errors once")
    func sharedOverlayFile() throws {
        let yaml =
            "hosts:\n  - bundle_id: com.a.One\n    overlay: o.yaml\n  - bundle_id: com.a.Two\n    overlay: o.yaml\n"
        let found = try errors(yaml, files: ["o.yaml": "order: [x]\n"])
        #expect(found.count == 1)
    }
}
