/// One `io.showcase.Roster.App` as the daemon sends it, for the human views.
///
/// `--json` never goes through this type: it prints the reply exactly as received, so fields the
/// daemon adds later reach scripts even before this client knows them.
struct AppRow: Decodable, Sendable, Equatable {
    let id: Int
    let artistId: Int?
    let name: String
    let bundleId: String?
    let genre: String?
    let formattedPrice: String?
    let platform: String?
    let minimumOsVersion: String?
    let iconUrl: String?
    let storeUrl: String?
    let tagline: String?
}
