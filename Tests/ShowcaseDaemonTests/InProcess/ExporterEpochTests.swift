import Foundation
import ShowcaseConfig
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

/// Each host's settings epoch (``ExportBook/epochs``, set by the reload that changes the configuration): the part of
/// a roster's export fingerprint that says whether the host's settings changed, so a reload that edits one host's
/// tagline re-renders that host's files only.
@Suite("Export fingerprints: each host's settings epoch")
struct ExporterEpochTests {
    func configuration(_ hosts: [HostConfiguration], attribution: Attribution = Attribution()) -> Configuration {
        var configuration = InProcessFixtures.configuration()
        configuration.hosts = hosts
        configuration.attribution = attribution
        return configuration
    }

    @Test("the epoch stays while a host's settings stay, and moves for that host alone when they change")
    func epochs() {
        let first = HostConfiguration(bundleID: "com.example.First")
        let second = HostConfiguration(bundleID: "com.example.Second")
        let owner = StateOwnerTests.owner(configuration([first, second]))
        func epoch(_ host: HostConfiguration) -> Int? { owner.read { $0.exportBook.epochs[host.bundleID] } }
        let (one, two) = (epoch(first), epoch(second))
        #expect(one != nil && two != nil && one != two)
        _ = owner.reload(to: configuration([first, second]))
        #expect(epoch(first) == one, "reloaded unchanged")

        var edited = first
        edited.overlay = Overlay(taglines: [1_641_000_103: .plain("Tides, lit")])
        _ = owner.reload(to: configuration([edited, second]))
        let moved = epoch(edited)
        #expect(moved != one && moved != two)
        #expect(epoch(second) == two, "the other host's files need no rendering")

        // Attribution and artwork rules shape every host's apps: a change moves every epoch.
        _ = owner.reload(to: configuration([edited, second], attribution: Attribution(providerToken: "1234567")))
        #expect(epoch(second) != two)
        #expect(epoch(edited) != moved)
    }
}
