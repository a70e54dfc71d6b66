import Foundation
import ShowcaseCore
import ShowcaseHistory

/// Small invented rosters for the history tests.
enum Samples {
    static let developer = 900_000_001
    static let host = 1_000_000_001
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func app(
        _ id: Int, version: String = "1.0", price: Double? = 0, formattedPrice: String? = "Free",
        name: String? = nil, platform: Platform = .ios, notes: String? = nil, date: String? = nil
    ) -> RosterObservation.App {
        RosterObservation.App(
            id: id,
            state: HistoryBaseline.App(
                name: name ?? "App \(id)", platform: platform, storeUrl: "https://apps.apple.com/us/app/id\(id)?uo=4",
                iconUrl: "https://is1-ssl.mzstatic.com/image/\(id)/512x512bb.jpg", version: version, price: price,
                formattedPrice: formattedPrice),
            versionDate: date, releaseNotes: notes)
    }

    static func roster(
        _ apps: [RosterObservation.App], artist: Int = developer, at minutes: Int = 0, dropped: Set<Int> = []
    ) -> RosterObservation {
        RosterObservation(
            artistId: artist, fetchedAt: start.addingTimeInterval(Double(minutes) * 60), apps: apps, droppedIds: dropped
        )
    }

    static func baseline(_ roster: RosterObservation, host: Int? = nil) -> HistoryBaseline {
        HistoryDiff.compare(roster, with: nil, hostTrackId: host).baseline
    }
}
