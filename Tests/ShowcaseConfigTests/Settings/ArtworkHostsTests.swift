import ShowcaseConfig
import ShowcaseCore
import Testing

/// `lookup.artwork_hosts`: the URL prefixes icons may come from, read like every other key.
@Suite("lookup.artwork_hosts")
struct ArtworkHostsTests {
    @Test("defaults to https://*.mzstatic.com/ and reads a list of prefixes")
    func reads() throws {
        #expect(try load(minimalHosts).lookup.artworkHosts.map(\.text) == ["https://*.mzstatic.com/"])
        let configured = try load(
            minimalHosts
                + "lookup:\n  artwork_hosts: [\"https://*.mzstatic.com/\", \"http://127.0.0.1:8080/icons/\"]\n")
        #expect(
            configured.lookup.artworkHosts.map(\.text) == ["https://*.mzstatic.com/", "http://127.0.0.1:8080/icons/"])
        #expect(configured.lookup.urlRules.allowsIconURL("http://127.0.0.1:8080/icons/a.png"))
        #expect(!configured.lookup.urlRules.allowsIconURL("http://127.0.0.1:8080/a.png"))
    }

    @Test("each bad entry is an error at its own line and column, saying what to write instead")
    func badEntries() throws {
        let found = try errors(
            minimalHosts + """
                lookup:
                  artwork_hosts:
                    - "https://*.mzstatic.com/"
                    - mzstatic.com
                    - "https://user@cdn.example.com/"
                    - "http://cdn.example.com/"
                    - ""
                    - "https://is*.mzstatic.com/"
                    - [nested]

                """)
        #expect(found.map { "\($0.line):\($0.column)" } == ["6:7", "7:7", "8:7", "9:7", "10:7", "11:7"])
        try #require(found.count == 6)
        #expect(found.allSatisfy { $0.message.contains("lookup.artwork_hosts") })
        #expect(found[0].code == .invalidValue)
        #expect(found[0].message.contains("not a URL prefix"))
        #expect(found[1].message.contains("user"))
        #expect(found[2].message.contains("https"))
        #expect(found[2].message.contains("127.0.0.1"))
        #expect(found[3].message.contains("empty"))
        #expect(found[4].message.contains("'*'"))
        #expect(found[5].code == .typeMismatch)
    }

    @Test("an empty list or a scalar is refused: every app would be dropped")
    func emptyOrScalar() throws {
        let empty = try onlyError(minimalHosts + "lookup:\n  artwork_hosts: []\n")
        #expect(empty?.code == .invalidValue)
        #expect(empty?.line == 4)
        #expect(empty?.column == 18)
        #expect(empty?.message.contains("at least one") == true)
        let scalar = try onlyError(minimalHosts + "lookup:\n  artwork_hosts: https://*.mzstatic.com/\n")
        #expect(scalar?.code == .typeMismatch)
    }

    @Test("a misspelt artwork_hosts key suggests the real one")
    func didYouMean() throws {
        let error = try onlyError(minimalHosts + "lookup:\n  artwork_host: [\"https://*.mzstatic.com/\"]\n")
        #expect(error?.message == "unknown key 'lookup.artwork_host'; did you mean 'lookup.artwork_hosts'?")
    }
}
