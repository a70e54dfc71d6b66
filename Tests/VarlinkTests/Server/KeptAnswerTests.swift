import Foundation
import Testing

@testable import Varlink

/// What a `Greet` handler keeps for its message.
private final class KeptName: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

@Suite("Kept answers: a message seen before answered from what its handler kept, without the handler")
struct KeptAnswerTests {
    static let idl = """
        interface org.example.kept

        # Greets name; a call seen before may be answered from what was kept for it.
        method Greet(name: string) -> (text: string)
        """

    /// Runs `body` with a client factory for a served `Greet` whose handler notes each run in `observations`, and
    /// whose kept answer declines the name "decline" and answers "partial" with a `continues` reply; passes the
    /// server's call counts too.
    private static func withServer(
        _ observations: Observations, _ body: (() throws -> VarlinkClient, VarlinkCallCounts) throws -> Void
    ) throws {
        var interface = try VarlinkInterface(idl: idl)
        try interface.handle(
            "Greet",
            keptAnswer: { kept in
                guard let kept = kept as? KeptName, kept.name != "decline" else { return nil }
                return EncodedReply(
                    parameters: ["text": .string("kept \(kept.name)")], continues: kept.name == "partial")
            }
        ) { call, responder throws(VarlinkError) in
            let kept = try call.remembered { () throws(VarlinkError) in KeptName(try call.string("name")) }
            observations.note("handler \(kept.name) more=\(call.more) oneway=\(call.oneway)")
            responder.reply(["text": .string("hello \(kept.name)")])
        }
        var service = VarlinkService(vendor: "test", product: "test", version: "1", url: "https://example.invalid")
        try service.add(interface)
        let directory = "/tmp/varlink-tests-\(UUID().uuidString.prefix(8))"
        let server = try VarlinkServer(service: service)
        try server.bind(path: directory + "/kept.sock")
        try server.start()
        defer {
            server.shutdown(gracePeriod: .milliseconds(100))
            try? FileManager.default.removeItem(atPath: directory)
        }
        try body({ try VarlinkClient(path: directory + "/kept.sock") }, service.callCounts)
    }

    @Test("the second identical call is answered by the kept answer; the handler ran once; both are counted")
    func answersTheRepeat() throws {
        let observations = Observations()
        try Self.withServer(observations) { connect, counts in
            let client = try connect()
            let other = try connect()
            #expect(try client.callSync("org.example.kept.Greet", ["name": "ada"]) == ["text": "hello ada"])
            #expect(try client.callSync("org.example.kept.Greet", ["name": "ada"]) == ["text": "kept ada"])
            #expect(try other.callSync("org.example.kept.Greet", ["name": "ada"]) == ["text": "kept ada"])
            #expect(observations.all == ["handler ada more=false oneway=false"])
            #expect(counts.snapshot()["org.example.kept.Greet"] == 3)
        }
    }

    @Test("a kept answer that declines lets the handler run every time")
    func declined() throws {
        let observations = Observations()
        try Self.withServer(observations) { connect, _ in
            let client = try connect()
            for _ in 0..<2 {
                #expect(try client.callSync("org.example.kept.Greet", ["name": "decline"]) == ["text": "hello decline"])
            }
            #expect(observations.all.count == 2)
        }
    }

    @Test("a kept answer that is not a final reply is not sent: the handler answers")
    func partialIsNotFinal() throws {
        let observations = Observations()
        try Self.withServer(observations) { connect, _ in
            let client = try connect()
            for _ in 0..<2 {
                #expect(try client.callSync("org.example.kept.Greet", ["name": "partial"]) == ["text": "hello partial"])
            }
            #expect(observations.all.count == 2)
        }
    }

    @Test("calls with more or oneway always go to the handler")
    func moreAndOneway() throws {
        let observations = Observations()
        try Self.withServer(observations) { connect, _ in
            let client = try connect()
            for _ in 0..<2 {
                var replies: [JSONValue] = []
                try client.callMoreSync("org.example.kept.Greet", ["name": "bo"]) { reply, _ in
                    replies.append(reply)
                    return true
                }
                #expect(replies == [["text": "hello bo"]])
            }
            try client.sendOneway("org.example.kept.Greet", ["name": "cy"])
            try client.sendOneway("org.example.kept.Greet", ["name": "cy"])
            // A call after the oneway ones on the same connection: handled in order, so they ran before its reply.
            #expect(try client.callSync("org.example.kept.Greet", ["name": "cy"]) == ["text": "hello cy"])
            #expect(
                observations.all == [
                    "handler bo more=true oneway=false", "handler bo more=true oneway=false",
                    "handler cy more=false oneway=true", "handler cy more=false oneway=true",
                    "handler cy more=false oneway=false",
                ])
        }
    }
}
