import FoundationEssentials

extension Roster {
    /// The `supportedDevices` models of this roster's body that map to no ``DeviceFamily``: a device Apple added
    /// after this table. Read again from the raw body (empty without one), so only a refresh pays for it; the
    /// daemon logs each model once.
    public var unknownDeviceModels: Set<String> {
        guard let body, let response = try? LookupResponse.decode(body) else { return [] }
        return DeviceFamilies.unknownModels(in: response.softwareRows.map { $0.supportedDevices })
    }
}
