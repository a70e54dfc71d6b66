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
    private let rosterCache = RosterTemplateCache()
    /// Which bench developer this generates: 0 is the one above; each other one has its own artist id,
    /// track ids and bundle ids (nothing shared with another developer but the template's shape).
    let developer: Int

    /// Reads the artist row and the first software row of `templatePath`, for bench developer `developer`.
    init(templatePath: String, developer: Int = 0) throws(BenchError) {
        self.developer = developer
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
        let renamed =
            developer == 0 ? artist : artist.replacingOccurrences(of: "Quiet Harbor", with: "Bench Dev \(developer)")
        artistRow = renamed.replacingOccurrences(of: Self.templateArtistId, with: String(Self.artistId(developer)))
        appRow = developer == 0 ? app : app.replacingOccurrences(of: "Quiet Harbor", with: "Bench Dev \(developer)")
    }

    /// The artist id of bench developer `developer` (developer 0: ``artistId``).
    static func artistId(_ developer: Int) -> Int { artistId + developer * 1000 }

    /// This developer's artist id.
    var artistId: Int { Self.artistId(developer) }

    /// The bundle id of app `index` of this developer; hosts are the first few.
    func bundleId(_ index: Int) -> String {
        developer == 0 ? Self.bundleId(index) : "com.benchharbor.dev\(developer).BenchApp\(index)"
    }

    /// The track id of app `index` of this developer.
    func trackId(_ index: Int) -> Int { Self.trackId(index) + developer * 1000 }

    /// The bundle id of the bench app at `index`; hosts are the first few.
    static func bundleId(_ index: Int) -> String { "com.benchharbor.BenchApp\(index)" }

    static func trackId(_ index: Int) -> Int { 1_650_000_101 + index }

    /// One software row for app `index` in storefront `code`.
    func row(_ index: Int, storefront code: String) -> String {
        appRow
            .replacingOccurrences(of: "com.quietharbor.\(Self.templateName)", with: bundleId(index))
            .replacingOccurrences(
                of: Self.templateName, with: developer == 0 ? "BenchApp\(index)" : "Dev\(developer)App\(index)"
            )
            .replacingOccurrences(of: "tidelog-tide-tables", with: "benchapp\(index)")
            // Each app its own artwork (same length), as a real catalog has: the icon row counts distinct icons.
            .replacingOccurrences(
                of: "5a67-19e5317fa37a", with: "5a67-" + String(String(1_000_000_000_000 + index).suffix(12))
            )
            .replacingOccurrences(of: Self.templateTrackId, with: String(trackId(index)))
            .replacingOccurrences(of: Self.templateArtistId, with: String(artistId))
            .replacingOccurrences(of: "apps.apple.com/us/", with: "apps.apple.com/\(code)/")
    }

    /// `lookup?id=<artist>&entity=software&limit=200&country=<code>`: the artist row and `apps` software rows.
    ///
    /// With `localPrices`, every row also has the storefront's own currency, price label and rating count, as a
    /// real catalog does (EUR and "4,99 €" in de, JPY in jp, each storefront's own ratings): no app is then listed
    /// alike in two storefronts (the bench's other rows differ only in store URLs).
    func rosterBody(apps: Int, storefront code: String, localPrices: Bool = false) -> Data {
        var replacements = ["apps.apple.com/\(code)/"]
        if localPrices {
            let currency = code.uppercased() + "X"  // a made-up code per storefront: the worst case for sharing
            replacements += [
                #""currency":"\#(currency)""#, #""formattedPrice":"Free (\#(code))""#,
                #""userRatingCount":\#(code.utf8.reduce(0) { $0 &* 31 &+ Int($1) })"#,
            ]
        }
        let template = rosterTemplate(apps: apps, localPrices: localPrices)
        var out: [UInt8] = []
        out.reserveCapacity(template.pieces.reduce(0) { $0 + $1.count } + template.holes.count * 24)
        for (index, piece) in template.pieces.enumerated() {
            out += piece
            if index < template.holes.count { out += replacements[template.holes[index]].utf8 }
        }
        return Data(out)
    }

    /// The patterns ``rosterBody(apps:storefront:localPrices:)`` replaces, in the `us` text.
    private static let usPatterns = [
        "apps.apple.com/us/", #""currency":"USD""#, #""formattedPrice":"Free""#, #""userRatingCount":24831"#,
    ]

    /// The `us` roster text cut at every pattern it replaces, once per app count, so each of the thousands of
    /// rosters a run writes is joined from the pieces, never searched (BENCHMARKS.md).
    private func rosterTemplate(apps: Int, localPrices: Bool) -> RosterTemplate {
        let key = apps * 2 + (localPrices ? 1 : 0)
        if let cached = rosterCache.template(key) { return cached }
        let patterns = Self.usPatterns.prefix(localPrices ? Self.usPatterns.count : 1).map { Array($0.utf8) }
        let bytes = usRosterBody(apps: apps)
        var template = RosterTemplate()
        var piece: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if let hole = patterns.firstIndex(where: { pattern in
                index + pattern.count <= bytes.count && bytes[index..<index + pattern.count].elementsEqual(pattern)
            }) {
                template.pieces.append(piece)
                template.holes.append(hole)
                piece = []
                index += patterns[hole].count
            } else {
                piece.append(bytes[index])
                index += 1
            }
        }
        template.pieces.append(piece)
        rosterCache.store(template, key)
        return template
    }

    /// The `us` roster body, from which ``rosterTemplate(apps:localPrices:)`` cuts (and keeps) its templates.
    private func usRosterBody(apps: Int) -> [UInt8] {
        Array(Self.body([artistRow] + (0..<apps).map { row($0, storefront: "us") }))
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
