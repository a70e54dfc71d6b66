import ShowcaseConfig
import Testing

@testable import ShowcaseDaemon

@Suite("Configuration snapshot")
struct ConfigSnapshotTests {
    @Test("finds a query's host by bundle id ignoring case, and the first host when the query names none")
    func hostLookup() {
        var configuration = InProcessFixtures.configuration()
        configuration.hosts = [HostConfiguration(bundleID: "com.a.One"), HostConfiguration(bundleID: "com.a.Two")]
        let snapshot = ConfigSnapshot(configuration: configuration, generation: 1, transport: FixtureLookup())
        #expect(snapshot.host(named: nil)?.bundleID == "com.a.One")
        #expect(snapshot.host(named: "COM.A.TWO")?.bundleID == "com.a.Two")
        #expect(snapshot.host(named: "com.a.Three") == nil)
    }

    @Test("the settings the scheduler, limiter and upstream read come from the snapshot's configuration")
    func settingsComeFromTheConfiguration() {
        var configuration = InProcessFixtures.configuration(interval: .seconds(7200))
        configuration.lookup.rateLimit = RateLimit(requests: 20, per: .seconds(60))
        let snapshot = ConfigSnapshot(configuration: configuration, generation: 1, transport: FixtureLookup())
        #expect(snapshot.schedule.interval == .seconds(7200))
        #expect(snapshot.requestSpacing == .seconds(3))
    }
}
