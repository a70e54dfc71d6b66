import Foundation
import Locking
import ShowcaseConfig
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

@Suite("Languages in process: one roster, cache file, queue entry and Status row per language")
struct LanguageServiceTests {
    let ca = TestBed.storefront("ca")
    let english = RosterLanguage(parsing: "en")!
    let french = RosterLanguage(parsing: "fr")!

    /// TideLog warm in `ca` in `languages`, caching in a fresh directory.
    func configuration(_ languages: [String] = ["en", "fr"]) -> Configuration {
        var configuration = InProcessFixtures.configuration(
            storefronts: ["ca"], cache: InProcessFixtures.cacheDirectory())
        configuration.languages = [ca: languages.compactMap(RosterLanguage.init(parsing:))]
        return configuration
    }

    func view(_ harness: DaemonRuntimeTests.Harness, locale: String?) -> RosterView {
        let snapshot = harness.runtime.state.config
        return harness.runtime.reader.view(
            for: RosterRequest(
                snapshot: snapshot, storefront: ca, host: snapshot.configuration.hosts[0], locale: locale),
            keepWarm: false)
    }

    @Test("a locale picks its language's roster, none the first language's; each costs one request")
    func localePicksRoster() async throws {
        let harness = await DaemonRuntimeTests.Harness(configuration())
        #expect(
            await harness.advance {
                view(harness, locale: "fr-CA").state == .fresh && view(harness, locale: nil).state == .fresh
            })
        let inFrench = view(harness, locale: "fr-CA").apps.map(\.app.name)
        let inEnglish = view(harness, locale: nil).apps.map(\.app.name)
        #expect(inFrench.contains("Knotbook – Carnet de nœuds"))
        #expect(inEnglish.contains("Knotbook"))
        #expect(!inEnglish.contains("Knotbook – Carnet de nœuds"))
        #expect(view(harness, locale: "fr").apps.map(\.app.name) == inFrench)
        #expect(view(harness, locale: "de-DE").apps.map(\.app.name) == inEnglish)
        #expect(view(harness, locale: "fr-CA").edition == StorefrontEdition(ca, language: french))

        // One identity request, then one roster request per language: the budget of S editions + H hosts.
        let rosters = harness.lookup.asked.compactMap(\.edition)
        #expect(
            rosters.sorted() == [StorefrontEdition(ca, language: english), StorefrontEdition(ca, language: french)])
        #expect(harness.lookup.asked.count == 3)
        await harness.stop()
    }

    @Test("Status has a row per language, metrics a language label, the cache a file per language")
    func statusMetricsCache() async throws {
        let configuration = configuration()
        let harness = await DaemonRuntimeTests.Harness(configuration)
        #expect(await harness.advance { harness.runtime.status.status().storefronts.allSatisfy { $0.state == .fresh } })
        let rows = harness.runtime.status.status().storefronts
        #expect(rows.map(\.storefront) == [ca, ca])
        #expect(rows.map(\.language) == [english, french])
        #expect(rows.allSatisfy { $0.apps > 0 && $0.nextRefreshAt != nil })

        let text = PrometheusExposition.render(harness.runtime.status.metrics(varlinkCalls: [:]))
        #expect(text.contains(#"showcase_roster_apps{storefront="ca",language="fr"}"#))
        #expect(text.contains(#"showcase_roster_apps{storefront="ca",language="en"}"#))

        let files = try FileManager.default.contentsOfDirectory(atPath: configuration.cache.directory)
        #expect(files.filter { $0.hasPrefix("roster-1641000001-ca-en-") }.count == 1)
        #expect(files.filter { $0.hasPrefix("roster-1641000001-ca-fr-") }.count == 1)
        #expect(files.filter { $0.hasPrefix("roster-") }.count == 2)

        // Health keeps one row per storefront code, for the default language while all are fresh.
        let health = harness.runtime.status.health()
        #expect(health.storefronts.count == 2)
        #expect(health.byStorefront.map(\.language) == [english])
        await harness.stop()
    }

    @Test("a failing language fails alone: its own error in Refresh and Status, the other roster still served")
    func languageFailsAlone() async throws {
        let harness = await DaemonRuntimeTests.Harness(configuration())
        #expect(await harness.advance { view(harness, locale: "fr").state == .fresh })
        #expect(await harness.advance { view(harness, locale: "en").state == .fresh })
        let french = self.french
        harness.lookup.fail(with: .malformed(detail: "invented for the test")) { $0.edition?.language == french }
        // Admin.Refresh waits for the rate limiter, which runs on the hand-moved clock.
        let outcome = LockedBox<RefreshReport?>(nil)
        let command = harness.runtime.refresh
        let ca = self.ca
        let refresh = Task {
            let report = await command.refresh(ca)
            outcome.withLock { $0 = report }
        }
        #expect(await harness.advance { outcome.withLock { $0 } != nil })
        await refresh.value
        let report = try #require(outcome.withLock { $0 })
        #expect(report.refreshed.isEmpty)
        #expect(report.failed.map(\.storefront) == [ca])
        #expect(report.failed.first?.failure.description.hasPrefix("fr: ") == true)
        #expect(view(harness, locale: "fr").state == .failed)
        #expect(view(harness, locale: "en").state == .fresh)
        let rows = harness.runtime.status.status().storefronts
        #expect(rows.map { $0.lastError == nil } == [true, false])
        // Health names the storefront once, in its worst language.
        #expect(harness.runtime.status.health().byStorefront.map(\.state) == [.failed])
        #expect(harness.runtime.status.health().byStorefront.map(\.language) == [french])
        await harness.stop()
    }

    @Test("a reload that drops a language stops refreshing it; one that adds a language fetches it")
    func reloadAppliesLanguages() async throws {
        let first = configuration(["en", "fr"])
        let harness = await DaemonRuntimeTests.Harness(first)
        #expect(await harness.advance { view(harness, locale: "fr").state == .fresh })
        var second = first
        second.languages = [ca: [english, RosterLanguage(parsing: "iu")!]]
        harness.source.withLock { $0 = second }
        guard case .success = await harness.runtime.reload.reload(trigger: "test") else {
            Issue.record("the reload was rejected")
            return
        }
        let schedule = harness.runtime.status.schedule()
        #expect(schedule[StorefrontEdition(ca, language: french)] == nil)
        #expect(schedule[StorefrontEdition(ca, language: english)] != nil)
        #expect(
            await harness.advance {
                harness.lookup.asked.contains {
                    $0.edition == StorefrontEdition(ca, language: RosterLanguage(parsing: "iu"))
                }
            })
        // fr is no longer configured: a French locale gets the default language now.
        #expect(view(harness, locale: "fr").edition == StorefrontEdition(ca, language: english))
        await harness.stop()
    }

    @Test("a storefront outside the configuration is fetched on demand without lang")
    func onDemandIsPlain() async throws {
        let harness = await DaemonRuntimeTests.Harness(configuration())
        let snapshot = harness.runtime.state.config
        let be = TestBed.storefront("be")
        _ = harness.runtime.reader.view(
            for: RosterRequest(snapshot: snapshot, storefront: be, host: snapshot.configuration.hosts[0], locale: "fr"))
        #expect(await harness.advance { harness.lookup.asked.contains { $0.edition?.storefront == be } })
        #expect(harness.lookup.asked.compactMap(\.edition).filter { $0.storefront == be } == [StorefrontEdition(be)])
        await harness.stop()
    }
}
