import Foundation
import Testing

@Suite("Hostile clients", .serialized)
struct HostileClientTests {
    @Test("garbage, oversized and half-sent messages from one client leave another client served")
    func badClientsDoNotDisturbOthers() throws {
        let bed = try TestBed()
        try bed.start()
        try bed.waitUntilWarm()
        let good = try bed.client()
        let expected = try good.call("io.showcase.Roster.Get", ["storefront": "de"])
        #expect(!expected.appIDs.isEmpty)

        let halfSent = try bed.client()
        halfSent.send(Array(#"{"method":"io.showcase.Roster.Get","parameters":{"stor"#.utf8))

        // Each of these must be answered with an error or closed; a daemon that does neither leaves the client
        // waiting, and `nextUnlessClosed` throws after the receive timeout instead of passing.
        let garbage = try bed.client()
        garbage.send(Array("this is not json\0".utf8))
        let garbageReply = try garbage.nextUnlessClosed()
        #expect(garbageReply == nil || garbageReply?.error != nil, "garbage got \(String(describing: garbageReply))")

        let notAnObject = try bed.client()
        notAnObject.send(Array("[1,2,3]\0".utf8))
        let arrayReply = try notAnObject.nextUnlessClosed()
        #expect(arrayReply == nil || arrayReply?.error != nil, "an array got \(String(describing: arrayReply))")

        let oversized = try bed.client()
        let big =
            Array(#"{"method":"io.showcase.Roster.Get","parameters":{"storefront":""#.utf8)
            + [UInt8](repeating: UInt8(ascii: "a"), count: 2 << 20) + Array("\"}}\0".utf8)
        oversized.send(big)
        #expect(oversized.isClosedByPeer())

        let wrongTypes = try bed.client().call("io.showcase.Roster.Get", ["storefront": 42])
        #expect(wrongTypes.error == "org.varlink.service.InvalidParameter")
        let badPlatform = try bed.client().call("io.showcase.Roster.Get", ["storefront": "de", "platform": "tvos"])
        #expect(badPlatform.error == "org.varlink.service.InvalidParameter")

        for _ in 0..<3 {
            let again = try good.call("io.showcase.Roster.Get", ["storefront": "de"])
            #expect(again.appIDs == expected.appIDs)
        }
        #expect(try bed.client().call("io.showcase.Roster.Get", ["storefront": "de"]).appIDs == expected.appIDs)
        #expect(bed.daemon!.process.isRunning)
    }
}
