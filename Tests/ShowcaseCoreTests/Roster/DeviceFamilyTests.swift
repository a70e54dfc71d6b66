import Foundation
import ShowcaseCore
import Testing

@Suite("Device families")
struct DeviceFamilyTests {
    let roster = Fixtures.lamplightRoster()

    func devices(_ id: Int) -> [String]? { roster.app(id: id)?.devices.names }

    func ids(_ query: RosterQuery) -> [Int] { query.resolve(roster).map(\.id) }

    @Test("supportedDevices prefixes map to iphone, ipad, watch, tv, vision and mac; unknown models map to nothing")
    func prefixes() {
        let cases: [String: DeviceFamily?] = [
            "iPhone15ProMax-iPhone15ProMax": .iphone, "iPodTouchSeventhGen-iPodTouchSeventhGen": .iphone,
            "iPadPro11M4-iPadPro11M4": .ipad, "iPad23G-iPad23G": .ipad, "Watch4-Watch4": .watch,
            "AppleTV4K-AppleTV4K": .tv, "RealityDevice-RealityDevice": .vision, "VisionPro-VisionPro": .vision,
            "MacDesktop-MacDesktop": .mac, "HoloBand1-HoloBand1": nil, "": nil,
        ]
        for (model, family) in cases { #expect(DeviceFamily(model: model) == family, "\(model)") }
    }

    @Test("every app of the fixture carries its families, a row without supportedDevices counts as iPhone and iPad")
    func fromRows() {
        #expect(devices(1_642_000_101) == ["iphone", "ipad", "watch", "vision", "mac"])
        #expect(devices(1_642_000_102) == ["watch"])
        #expect(devices(1_642_000_103) == ["ipad"])
        #expect(devices(1_642_000_104) == ["tv"])
        #expect(devices(1_642_000_105) == ["vision"])
        #expect(devices(1_642_000_106) == ["iphone", "mac"])
        #expect(devices(1_642_000_107) == ["iphone", "ipad"])
        #expect(devices(1_642_000_108) == ["iphone"])
        #expect(devices(1_642_000_201) == ["mac"])
        #expect(roster.apps.allSatisfy { !$0.devices.isEmpty })
    }

    @Test("an iOS query without device never suggests a watch-, TV- or vision-only app")
    func defaultQuery() {
        let query = RosterQuery(hostBundleId: Fixtures.beacon, platform: .ios)
        #expect(ids(query) == [1_642_000_103, 1_642_000_106, 1_642_000_107, 1_642_000_108])
    }

    @Test("a query with device keeps only iOS-store apps that run on it; MacDesktop is not the Mac store")
    func deviceQuery() {
        func ids(_ device: DeviceFamily, _ platform: Platform = .ios) -> [Int] {
            self.ids(RosterQuery(hostBundleId: Fixtures.beacon, platform: platform, device: device))
        }
        #expect(ids(.watch) == [1_642_000_102])
        #expect(ids(.tv) == [1_642_000_104])
        #expect(ids(.vision) == [1_642_000_105])
        #expect(ids(.ipad) == [1_642_000_103, 1_642_000_107])
        #expect(ids(.iphone) == [1_642_000_106, 1_642_000_107, 1_642_000_108])
        #expect(ids(.mac) == [1_642_000_106])
        #expect(ids(.mac, .macos) == [1_642_000_201])
        #expect(ids(.iphone, .macos).isEmpty)
    }

    @Test("models of a device not known yet are reported once each, so a new Apple device is noticed")
    func unknownModels() throws {
        let response = try LookupResponse.decode(Fixtures.data("roster-1642000001-us.json"))
        #expect(
            DeviceFamilies.unknownModels(in: response.results.map { $0.supportedDevices }) == ["HoloBand1-HoloBand1"])
        #expect(DeviceFamilies.unknownModels(in: [["Watch4-Watch4"], nil, ["X1-X1", "X1-X1"]]) == ["X1-X1"])
        #expect(roster.unknownDeviceModels == ["HoloBand1-HoloBand1"])
        #expect(Fixtures.roster("us").unknownDeviceModels.isEmpty)
    }

    @Test("device families survive the cache's fast startup load")
    func cacheRoundTrip() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("showcase-devices-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = FileCache(directory: directory)
        try cache.store(roster)
        let loaded = try #require(cache.loadAllRosters().first)
        #expect(loaded.apps.map(\.devices) == roster.apps.map(\.devices))
        #expect(loaded.apps == roster.apps)
    }
}
