import FoundationEssentials

extension App {
    /// Why ``init(row:)`` drops `row`, as a short phrase for logs and the `MalformedResponse` detail
    /// ("without trackName", "of unknown kind 'tv-software'"), or nil when the row makes an app.
    ///
    /// Checks the fields in the order ``init(row:)`` needs them, so the phrase names the first one missing. A
    /// row counted here but accepted there (or the reverse) would make the all-dropped check lie, which the
    /// decoding tests guard: every fixture row either decodes or has a reason.
    public static func dropReason(for row: LookupRow) -> String? {
        if row.isArtist { return "an artist row" }
        guard let kind = row.kind else { return "without kind" }
        guard Platform(kind: kind) != nil else { return "of unknown kind '\(kind.prefix(40))'" }
        if row.trackId == nil { return "without trackId" }
        if row.artistId == nil { return "without artistId" }
        if row.trackName?.isEmpty ?? true { return "without trackName" }
        if row.bundleId?.isEmpty ?? true { return "without bundleId" }
        if (row.primaryGenreName ?? row.genres?.first) == nil { return "without primaryGenreName" }
        guard let floor = row.minimumOsVersion else { return "without minimumOsVersion" }
        if OSVersion(floor) == nil { return "with an unreadable minimumOsVersion" }
        if (row.artworkUrl512 ?? row.artworkUrl100 ?? row.artworkUrl60) == nil { return "without an artwork URL" }
        if row.trackViewUrl?.isEmpty ?? true { return "without trackViewUrl" }
        return App(row: row) == nil ? "incomplete" : nil
    }

    /// The storefront code a store URL names (`https://apps.apple.com/jp/app/…` → `jp`), or nil when its first
    /// path component is not a two-letter code.
    static func storefrontCode(inStoreUrl url: String) -> String? {
        guard let components = URLComponents(string: url) else { return nil }
        let first = components.path.split(separator: "/").first.map(String.init) ?? ""
        guard first.count == 2, first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return first.lowercased()
    }
}
