import Foundation
import Glibc
import Testing

@testable import showcase_bench

@Suite("Varied calls")
struct CallRotationTests {
    private static let storefronts = (0..<30).map { index in
        String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index / 26)))
            + String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index % 26)))
    }

    private func parameters(_ call: String) throws -> [String: String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(call.utf8)) as? [String: Any])
        #expect(object["method"] as? String == "io.showcase.Roster.Get")
        return try #require(object["parameters"] as? [String: String])
    }

    @Test("every call differs from the one before it, also where the rotation wraps")
    func consecutiveCallsDiffer() throws {
        let rotation = try CallRotation(dimensions: CallRotation.standard(storefronts: Self.storefronts))
        #expect(rotation.calls.count == 60)
        for index in rotation.calls.indices {
            let next = rotation.calls[(index + 1) % rotation.calls.count]
            #expect(rotation.calls[index] != next)
            #expect(try parameters(rotation.calls[index])["storefront"] != parameters(next)["storefront"])
        }
        #expect(Set(rotation.calls).count == rotation.calls.count)
    }

    @Test("the rotation covers every storefront and every value of each dimension, omitting nil members")
    func coversEveryValue() throws {
        let rotation = try CallRotation(dimensions: CallRotation.standard(storefronts: Self.storefronts))
        let all = try rotation.calls.map(parameters)
        #expect(Set(all.compactMap { $0["storefront"] }) == Set(Self.storefronts))
        #expect(Set(all.map { $0["platform"] ?? "-" }) == ["-", "ios"])
        #expect(Set(all.map { $0["locale"] ?? "-" }) == ["-", "en", "fr"])
        #expect(Set(all.map { $0["osVersion"] ?? "-" }) == ["-", "16.0", "17.4", "18.2"])
        #expect(Set(all.map { $0["device"] ?? "-" }) == ["-", "iphone", "ipad"])
    }

    @Test("a new dimension is one table entry, and its values reach the calls")
    func addingADimension() throws {
        var dimensions = CallRotation.standard(storefronts: ["us", "de"])
        dimensions.append(CallRotation.Dimension(name: "waitMs", values: [nil, "1", "2", "3", "4"]))
        let rotation = try CallRotation(dimensions: dimensions)
        #expect(rotation.calls.count == 60)  // lcm(2, 2, 3, 3, 4, 5)
        #expect(Set(try rotation.calls.map { try parameters($0)["waitMs"] ?? "-" }).count == 5)
    }

    @Test("a first dimension with one value is refused: consecutive calls could repeat")
    func refusesAConstantFirstDimension() {
        #expect(throws: BenchError.self) {
            try CallRotation(dimensions: [CallRotation.Dimension(name: "storefront", values: ["us"])])
        }
    }

    @Test("the rotation file reads back to the same calls")
    func roundTrip() throws {
        let rotation = try CallRotation(dimensions: CallRotation.standard(storefronts: ["us", "de", "jp"]))
        #expect(try CallRotation(text: rotation.text).calls == rotation.calls)
    }

    @Test("a load connection sends the rotation in turn: on the wire, no call repeats the previous one")
    func connectionRotatesOnTheWire() throws {
        let rotation = try CallRotation(dimensions: CallRotation.standard(storefronts: ["us", "de", "jp"]))
        let calls = rotation.calls.map { Array($0.utf8) + [0] }
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[1]) }
        let connection = LoadConnection(fd: pair[0], depth: 1, budget: .max)
        connection.nextCall = 5
        var sent: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<(calls.count + 3) {
            connection.send(count: 1, rotating: calls, at: 0)
            var message: [UInt8] = []
            while message.last != 0 {
                let count = buffer.withUnsafeMutableBytes { recv(pair[1], $0.baseAddress!, $0.count, 0) }
                try #require(count > 0)
                message += buffer[0..<count]
            }
            sent.append(String(decoding: message.dropLast(), as: UTF8.self))
            // Answer it, so the connection has room for the next call.
            _ = "{}\0".withCString { send(pair[1], $0, 3, 0) }
            _ = connection.receive(at: { 1 }) { _, _, _ in }
        }
        #expect(sent.first == rotation.calls[5])
        for index in 1..<sent.count { #expect(sent[index] != sent[index - 1]) }
        #expect(sent[calls.count] == sent[0])  // a full turn later, the same call again
    }
}
