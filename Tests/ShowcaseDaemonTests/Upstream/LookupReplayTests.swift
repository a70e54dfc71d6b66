import Foundation
import LookupReplay
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("LookupReplay control endpoints")
struct LookupReplayTests {
    private func get(_ url: String) throws -> (Int, Data) {
        let semaphore = DispatchSemaphore(value: 0)
        let box = ResultBox()
        URLSession.shared.dataTask(with: URL(string: url)!) { data, response, _ in
            box.set((response as? HTTPURLResponse)?.statusCode ?? -1, data ?? Data())
            semaphore.signal()
        }.resume()
        semaphore.wait()
        return box.value
    }

    @Test("a roster asked for with lang=fr_ca is served from roster-A-cc-fr.json, or the plain file when none exists")
    func servesByLanguage() {
        let query = ["id": "1641000001", "entity": "software", "limit": "200", "country": "ca"]
        var french = query
        french["lang"] = "fr_ca"
        #expect(LookupReplayServer.fixtureName(for: query) == "roster-1641000001-ca.json")
        #expect(LookupReplayServer.fixtureName(for: french) == "roster-1641000001-ca-fr.json")
        #expect(
            LookupReplayServer.fixtureName(for: french, available: { $0 == "roster-1641000001-ca.json" })
                == "roster-1641000001-ca.json")
        var hostile = query
        hostile["lang"] = "../../etc_ca"
        #expect(LookupReplayServer.fixtureName(for: hostile) == "roster-1641000001-ca.json")
    }

    @Test("serves fixtures by the naming contract and obeys faults armed over HTTP")
    func namingAndControl() throws {
        let replay = try LookupReplayServer(fixtures: TestBed.fixtures)
        defer { replay.stop() }
        let base = "http://127.0.0.1:\(replay.port)"
        let (status, body) = try get("\(base)/lookup?id=\(TestBed.artistId)&entity=software&limit=200&country=de")
        #expect(status == 200)
        #expect(
            body
                == (try Data(contentsOf: TestBed.fixtures.appendingPathComponent("roster-\(TestBed.artistId)-de.json")))
        )
        let (_, unknown) = try get("\(base)/lookup?id=1&entity=software&limit=200&country=de")
        #expect(unknown == (try Data(contentsOf: TestBed.fixtures.appendingPathComponent("empty.json"))))

        #expect(try get("\(base)/_replay/fault?status=429&retryAfter=7&count=1").0 == 200)
        #expect(try get("\(base)/lookup?bundleId=\(TestBed.knotbook)&country=us").0 == 429)
        #expect(try get("\(base)/lookup?bundleId=\(TestBed.knotbook)&country=us").0 == 200)
        #expect(try get("\(base)/_replay/fault?action=bogus").0 == 400)

        let (_, log) = try get("\(base)/_replay/requests")
        let requests = try JSONSerialization.jsonObject(with: log) as? [[String: Any]] ?? []
        #expect(requests.count == 4)
        #expect(requests[2]["answeredWith"] as? String == "fault:429 retry-after=7")
        #expect(replay.requests.map(\.kind) == [.roster, .roster, .identity, .identity])
    }

    @Test("override?dir= switches to a revision: each file in the folder answers for its name, the rest stay")
    func revisionDirectory() throws {
        let replay = try LookupReplayServer(fixtures: TestBed.fixtures)
        defer { replay.stop() }
        let base = "http://127.0.0.1:\(replay.port)"
        let revision = FileManager.default.temporaryDirectory.appendingPathComponent("replay-revision-\(UUID())")
        try FileManager.default.createDirectory(at: revision, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: revision) }
        let changed = Data(#"{"resultCount":0,"results":[]} revision 2"#.utf8)
        try changed.write(to: revision.appendingPathComponent("roster-\(TestBed.artistId)-de.json"))
        let roster = "\(base)/lookup?id=\(TestBed.artistId)&entity=software&limit=200&country="
        let usBefore = try get(roster + "us").1

        let encoded = revision.path.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!
        #expect(try get("\(base)/_replay/override?dir=\(encoded)").0 == 200)
        #expect(try get(roster + "de").1 == changed)
        #expect(try get(roster + "us").1 == usBefore)

        let empty = revision.appendingPathComponent("empty-folder")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let (status, message) = try get("\(base)/_replay/override?dir=\(encoded)/empty-folder")
        #expect(status == 400)
        #expect(String(decoding: message, as: UTF8.self).contains("holds no fixture file"))
        #expect(try get("\(base)/_replay/override/clear").0 == 200)
        #expect(
            try get(roster + "de").1
                == (try Data(contentsOf: TestBed.fixtures.appendingPathComponent("roster-\(TestBed.artistId)-de.json")))
        )
    }
}

private final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (Int, Data) = (-1, Data())
    func set(_ status: Int, _ data: Data) { lock.withLock { stored = (status, data) } }
    var value: (Int, Data) { lock.withLock { stored } }
}
