import Foundation
import ShowcaseCore
import Testing

extension FileCacheTests {
    /// The pid of a process that has exited: a child started and reaped.
    func exitedPid() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test("temporary files of a writer killed mid-write are swept; a live writer's file and the rosters stay")
    func sweepsAbandonedTemporaryFiles() throws {
        try cache.store(Fixtures.roster("us"))
        let roster = cache.rosterURL(artistId: Fixtures.artistId, storefront: Fixtures.storefront("us"))
        let rosterBytes = try Data(contentsOf: roster)
        let dead = ".\(roster.lastPathComponent).\(try exitedPid()).12345.tmp"
        let live = ".\(roster.lastPathComponent).\(getpid()).67890.tmp"
        for name in [dead, live] {
            try Data("half a roster".utf8).write(to: directory.appendingPathComponent(name))
        }

        #expect(cache.removeAbandonedTemporaryFiles() == 1)
        #expect(!files().contains(dead))
        #expect(files().contains(live))
        #expect(try Data(contentsOf: roster) == rosterBytes)
        #expect(cache.loadRoster(artistId: Fixtures.artistId, storefront: Fixtures.storefront("us")) != nil)
    }
}
