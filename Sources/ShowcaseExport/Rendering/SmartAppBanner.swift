/// `v1/<host>/banner.html` (SPEC §14): Safari's Smart App Banner for pages about the host app itself, a `<meta>`
/// for the page's `<head>` naming the host's own trackId.
public struct SmartAppBanner: HostFileRenderer {
    /// The file's name inside `v1/<host>/`.
    public static let fileName = "banner.html"

    /// ``fileName``, as the writer asks for it.
    public var name: String { Self.fileName }

    /// The banner renderer.
    public init() {}

    /// The banner of the host of `roster`; nil while its trackId is not known, so a banner written earlier stays.
    public func render(_ roster: ExportRoster, in context: RenderContext) -> [UInt8]? {
        roster.hostAppId.flatMap { $0 > 0 ? Self.render(hostAppId: $0) : nil }
    }

    /// `<meta name="apple-itunes-app" content="app-id=ID">` and a newline for the host app `trackId`; empty when
    /// it is not known or not a positive number, so an include shows nothing.
    public static func render(hostAppId: Int?) -> [UInt8] {
        guard let hostAppId, hostAppId > 0 else { return [] }
        return Array("<meta name=\"apple-itunes-app\" content=\"app-id=\(hostAppId)\">\n".utf8)
    }
}
