import Foundation
import Testing

@Suite("Device families end to end", .serialized)
struct DeviceTests {
    @Test("every served app carries devices, price and currency; Get's device filter and the iPhone/iPad default")
    func deviceFilter() throws {
        let bed = try TestBed()
        bed.hosts = ["com.lamplight.Beacon"]
        bed.storefronts = ["us"]
        try bed.start()
        try bed.waitUntilWarm()

        let phoneOrPad = try bed.get("us")
        #expect(phoneOrPad.error == nil, "\(phoneOrPad)")
        #expect(phoneOrPad.appIDs == [1_642_000_103, 1_642_000_106, 1_642_000_107, 1_642_000_108])
        let apps = phoneOrPad["apps"] as? [[String: Any]] ?? []
        #expect(apps.allSatisfy { !(($0["devices"] as? [String]) ?? []).isEmpty })
        let sketchpad = apps.first { $0["id"] as? Int == 1_642_000_103 }
        #expect(sketchpad?["devices"] as? [String] == ["ipad"])
        #expect(sketchpad?["price"] as? Double == 4.99)
        #expect(sketchpad?["currency"] as? String == "USD")
        #expect(apps.first { $0["id"] as? Int == 1_642_000_106 }?["devices"] as? [String] == ["iphone", "mac"])

        #expect(try bed.get("us", ["device": "watch"]).appIDs == [1_642_000_102])
        #expect(try bed.get("us", ["device": "TV"]).appIDs == [1_642_000_104])
        #expect(try bed.get("us", ["device": "vision"]).appIDs == [1_642_000_105])
        // The reply cache keys on device too: the hot iPhone query is not served to a watch.
        #expect(try bed.get("us").appIDs == phoneOrPad.appIDs)
        #expect(try bed.get("us", ["device": "watch"]).appIDs == [1_642_000_102])
        let mac = try bed.get("us", ["platform": "macos"])
        #expect(mac.appIDs == [1_642_000_201])
        #expect((mac["apps"] as? [[String: Any]])?.first?["devices"] as? [String] == ["mac"])

        // mac is a family apps carry, so Get takes it: iOS apps that also run on Apple silicon Macs (the host,
        // which lists MacDesktop too, is never in its own roster), or with platform macos the Mac App Store's.
        #expect(try bed.get("us", ["device": "mac"]).appIDs == [1_642_000_106])
        #expect(try bed.get("us", ["platform": "macos", "device": "mac"]).appIDs == [1_642_000_201])

        let bad = try bed.get("us", ["device": "toaster"])
        #expect(bad.error == "org.varlink.service.InvalidParameter")
        #expect(bad.string("parameter") == "device")
    }

    @Test("a device model no family knows is logged by name, and not again on every refresh")
    func unknownModelLoggedOnce() throws {
        let bed = try TestBed()
        bed.hosts = ["com.lamplight.Beacon"]
        bed.storefronts = ["us"]
        try bed.start()
        try bed.waitUntilWarm()
        try bed.refresh("us")
        try bed.refresh("us")
        let log = bed.daemon?.log ?? ""
        #expect(log.components(separatedBy: "HoloBand1-HoloBand1").count - 1 == 1, "\(log)")
    }
}
