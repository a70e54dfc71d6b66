import Foundation
import Testing

@testable import ShowcaseCore

@Suite("Bundle id comparison")
struct BundleIdComparisonTests {
    @Test("equal ignoring ASCII case, and only then")
    func asciiCase() {
        #expect(RosterQuery.sameBundleId("com.quietharbor.TideLog", "COM.QuietHarbor.tidelog"))
        #expect(RosterQuery.sameBundleId("", ""))
        #expect(!RosterQuery.sameBundleId("com.quietharbor.TideLog", "com.quietharbor.TideLo"))
        #expect(!RosterQuery.sameBundleId("com.a", "com.b"))
        // Bytes that differ only in bit 0x20 but are not letters are different characters.
        #expect(!RosterQuery.sameBundleId("com.a-b", "com.a\rb"))
        #expect(!RosterQuery.sameBundleId("com.a@b", "com.a`b"))
    }

    @Test("agrees with Foundation's caseInsensitiveCompare beyond ASCII")
    func beyondASCII() {
        let pairs = [("com.café.App", "COM.CAFÉ.app"), ("com.straße", "com.STRASSE"), ("com.é", "com.e")]
        for (left, right) in pairs {
            #expect(
                RosterQuery.sameBundleId(left, right) == (left.caseInsensitiveCompare(right) == .orderedSame))
        }
    }
}
