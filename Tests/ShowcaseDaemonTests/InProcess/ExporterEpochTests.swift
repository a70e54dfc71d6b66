import Foundation
import ShowcaseConfig
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

/// `Exporter.settingsEpoch`: the part of a roster's export fingerprint that says whether the host's settings
/// changed, so a reload that edits one host's tagline re-renders that host's files only.
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
        let exporter = Exporter(state: StateOwnerTests.owner(), log: DaemonLog(environment: [:]))
        let first = HostConfiguration(bundleID: "com.example.First")
        let second = HostConfiguration(bundleID: "com.example.Second")
        let before = configuration([first, second])
        let (one, two) = (exporter.settingsEpoch(of: first, in: before), exporter.settingsEpoch(of: second, in: before))
        #expect(one != two)
        #expect(exporter.settingsEpoch(of: first, in: before) == one, "asked again, unchanged")

        var edited = first
        edited.overlay = Overlay(taglines: [1_641_000_103: .plain("Tides, lit")])
        let after = configuration([edited, second])
        let moved = exporter.settingsEpoch(of: edited, in: after)
        #expect(moved != one && moved != two)
        #expect(exporter.settingsEpoch(of: second, in: after) == two, "the other host's files need no rendering")

        // Attribution and artwork rules shape every host's apps: a change moves every epoch.
        let attributed = configuration([edited, second], attribution: Attribution(providerToken: "1234567"))
        #expect(exporter.settingsEpoch(of: second, in: attributed) != two)
        #expect(exporter.settingsEpoch(of: edited, in: attributed) != moved)
    }
}
