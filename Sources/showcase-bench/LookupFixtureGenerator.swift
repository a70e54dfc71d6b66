import Foundation

/// Lookup responses for the bench's invented developer, built from a real capture's rows so every
/// generated body has Apple's exact shape (44 keys per software row, one row per line, the artist first).
///
/// The template is a roster fixture (`Fixtures/lookup/roster-1641000001-us.json`); its artist row and its
/// first iOS row are cloned with new ids, bundle ids and names. Used both for the cache files (startup and
/// memory rows) and for the loopback lookup server (the upstream-request row), so the daemon decodes the
/// same bytes either way.
struct LookupFixtureGenerator {
    /// The bench developer, distinct from the test fixtures' developer.
    static let artistId = 1_650_000_001
    private static let templateArtistId = "1641000001"
    private static let templateTrackId = "1641000101"
    private static let templateName = "TideLog"

    private let artistRow: String
    private let appRow: String
    private let rosterCache = RosterTextCache()

    /// Reads the artist row and the first software row of `templatePath`.
    init(templatePath: String) throws(BenchError) {
        guard let text = try? String(contentsOfFile: templatePath, encoding: .utf8) else {
            throw BenchError("cannot read the lookup template \(templatePath)")
        }
        let lines = text.split(separator: "\n").map { line -> String in
            var row = String(line)
            while row.hasSuffix(" ") || row.hasSuffix(",") { row.removeLast() }
            if row.hasSuffix("}]") { row.removeLast() }
            return row
        }
        guard let artist = lines.first(where: { $0.hasPrefix("{") && $0.contains("\"wrapperType\":\"artist\"") }),
            let app = lines.first(where: { $0.contains("\"trackId\":\(Self.templateTrackId)") })
        else {
            throw BenchError("\(templatePath) has no artist row or no row for trackId \(Self.templateTrackId)")
        }
        artistRow = artist.replacingOccurrences(of: Self.templateArtistId, with: String(Self.artistId))
        appRow = app
    }

    /// The bundle id of the bench app at `index`; hosts are the first few.
    static func bundleId(_ index: Int) -> String { "com.benchharbor.BenchApp\(index)" }

    static func trackId(_ index: Int) -> Int { 1_650_000_101 + index }

    /// One software row for app `index` in storefront `code`.
    func row(_ index: Int, storefront code: String) -> String {
        appRow
            .replacingOccurrences(of: "com.quietharbor.\(Self.templateName)", with: Self.bundleId(index))
            .replacingOccurrences(of: Self.templateName, with: "BenchApp\(index)")
            .replacingOccurrences(of: "tidelog-tide-tables", with: "benchapp\(index)")
            .replacingOccurrences(of: Self.templateTrackId, with: String(Self.trackId(index)))
            .replacingOccurrences(of: Self.templateArtistId, with: String(Self.artistId))
            .replacingOccurrences(of: "apps.apple.com/us/", with: "apps.apple.com/\(code)/")
    }

    /// `lookup?id=<artist>&entity=software&limit=200&country=<code>`: the artist row and `apps` software rows.
    func rosterBody(apps: Int, storefront code: String) -> Data {
        let text = rosterText(apps: apps)
        return Data(text.replacingOccurrences(of: "apps.apple.com/us/", with: "apps.apple.com/\(code)/").utf8)
    }

    /// The `us` roster text; other storefronts differ only in their store URLs. Built once per app count.
    private func rosterText(apps: Int) -> String {
        if let cached = rosterCache.text(apps: apps) { return cached }
        let rows = [artistRow] + (0..<apps).map { row($0, storefront: "us") }
        let text = String(decoding: Self.body(rows), as: UTF8.self)
        rosterCache.store(text, apps: apps)
        return text
    }

    /// `lookup?bundleId=<host>&country=<code>`: the host's own row.
    func identityBody(appIndex: Int, storefront code: String) -> Data {
        Self.body([row(appIndex, storefront: code)])
    }

    /// Apple's layout: three newlines, the count, one row per line, three newlines.
    private static func body(_ rows: [String]) -> Data {
        Data(
            ("\n\n\n{\n \"resultCount\":\(rows.count),\n \"results\": [\n" + rows.joined(separator: ", \n")
                + "]\n}\n\n\n").utf8)
    }
}
