import Foundation
import ShowcaseConfig
import Testing

/// `hosts[].bundle_id`: a reverse-DNS identifier, never a name the export tree reserves (SPEC §4).
@Suite("Host bundle ids")
struct BundleIDTests {
    @Test("rejects reserved names, empty labels, spaces, underscores and a 156-character id, each where written")
    func fixtureErrors() throws {
        let path = fixture("invalid/bad-bundle-ids.yaml")
        let found = errors(inFixture: "invalid/bad-bundle-ids.yaml")
        #expect(found.map { "\($0.line):\($0.column)" } == (3...9).map { "\($0):16" })
        #expect(found.allSatisfy { $0.code == .invalidValue && $0.file == path })
        let messages = found.map(\.message)
        guard messages.count == 7 else { return }
        #expect(messages[0].hasPrefix("'index.json' is a name the export tree reserves"))
        #expect(messages[1].hasPrefix("'icons' is a name the export tree reserves"))
        #expect(messages[2].hasPrefix("'.hidden' is a name the export tree reserves"))
        #expect(messages[3].contains("non-empty labels") && messages[3].contains("'a..b'"))
        #expect(messages[4].contains("'com.example.Note Jar' with a space"))
        #expect(messages[5] == "a bundle identifier has at most 155 characters; this 'bundle_id' has 156")
        #expect(messages[6].contains("'com.exa_mple.x' with '_'"))
    }

    @Test("reserved names are refused ignoring case, as bundle ids are compared")
    func reservedIgnoringCase() throws {
        for name in ["Index.JSON", "ICONS", ".Trash"] {
            let error = try onlyError("hosts:\n  - bundle_id: \"\(name)\"\n")
            #expect(error?.message.contains("reserves") == true, "\(name): \(String(describing: error))")
        }
    }

    @Test("accepts reverse-DNS ids with digits and hyphens, a single label, and exactly 155 characters")
    func accepted() throws {
        let longest = "com.example." + String(repeating: "a", count: 143)
        #expect(longest.count == 155)
        for id in ["com.example.NoteJar", "com.example-2.note-jar9", "NoteJar", "index.json.app", longest] {
            let configuration = try load("hosts:\n  - bundle_id: \(id)\n")
            #expect(configuration.hosts.map(\.bundleID) == [id])
        }
    }

    @Test("rejects a leading, trailing or doubled dot and an empty id")
    func emptyLabels() throws {
        for id in ["com.example.", "com..example", "\"\""] {
            let error = try onlyError("hosts:\n  - bundle_id: \(id)\n")
            #expect(error?.code == .invalidValue, "\(id)")
            #expect(error?.column == 16)
        }
    }
}
