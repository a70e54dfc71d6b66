/// `v1/<host>/banner.html` (SPEC §14): Safari's Smart App Banner for pages about the host app itself, a `<meta>`
/// for the page's `<head>` naming the host's own trackId.
public enum SmartAppBanner {
    /// The file's name inside `v1/<host>/`.
    public static let fileName = "banner.html"

    /// `<meta name="apple-itunes-app" content="app-id=ID">` and a newline for the host app `trackId`; empty when
    /// the host's trackId is not known (yet) or not a positive number, so an include shows nothing.
    public static func render(hostAppId: Int?) -> [UInt8] {
        guard let hostAppId, hostAppId > 0 else { return [] }
        return Array("<meta name=\"apple-itunes-app\" content=\"app-id=\(hostAppId)\">\n".utf8)
    }
}
