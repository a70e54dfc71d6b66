import Foundation
import Testing

/// SPEC §18 through the binary: "What's new" shows the current version's date and release notes from the first run,
/// whether or not the history recorded that version, and the same bytes after a run from the same cache and state
/// and after a daemon restart (the baseline in `state.directory` keeps them, not the cache's compacted rosters).
extension SiteTests {
    /// The fixture's TideLog (the host) and Lanternlight in us: version, date and notes upstream gives.
    static let releases = [
        (id: tideLogId, version: "2.3.2", date: "2026-03-21"),
        (id: lanternlight, version: "4.5.1", date: "2026-05-23"),
    ]

    @Test("the first --once writes the current version's date and notes; a second run and a restart rewrite nothing")
    func currentRelease() throws {
        let bed = try usBed(icons: false)
        let first = try OneShotRun.run(bed)
        #expect(first.status == 0, "\(first)")
        for release in Self.releases {
            let page = try text(bed, "site/us/\(release.id)/index.html")
            #expect(page.contains("\(release.version)"), "\(release.id)")
            #expect(
                page.contains("<time datetime=\"\(release.date)\">\(release.date)</time>"), "\(release.id): \(page)")
            #expect(page.contains("Bug fixes and small improvements."), "\(release.id): \(page)")
        }
        let pages = { try self.stamps(bed).filter { $0.key.hasSuffix("index.html") } }
        let before = try pages()

        let second = try OneShotRun.run(bed)
        #expect(second.status == 0, "\(second)")
        #expect(try pages() == before, "a second run from the same cache and state rewrote a page")

        try bed.start()
        try bed.waitUntilWarm()
        #expect(try bed.export().error == nil)
        #expect(try pages() == before, "the daemon, started from the same cache and state, rewrote a page")
    }
}
