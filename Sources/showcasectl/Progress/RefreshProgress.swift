import ShowcaseAPI
import ShowcaseConfig
import ShowcaseCore
import Varlink

/// The progress of `showcasectl refresh`, from `Admin.Status` on a second connection while `Admin.Refresh` runs:
/// `1/3 storefronts, next request in 3 s, about 9 s left`.
///
/// A roster counts as done once its `fetchedAt`, `lastError` or state differs from where it stood before the call;
/// the next request is due one rate-limit slot after the upstream request counter last went up (a slot is taken
/// as each request goes out). The rate is `lookup.rate_limit` of the configuration file Status names, when this
/// user can read it, else the documented default.
final class RefreshProgress: ProgressSource, @unchecked Sendable {
    /// What identifies a roster in Status, and what changes when it is refreshed.
    private struct Roster: Hashable {
        let code: String
        let language: String?
    }

    private struct Stand: Equatable {
        let fetchedAt: String?
        let lastError: String?
        let state: String
    }

    private let connection: DaemonConnection
    private let storefront: Storefront?
    private let before: [Roster: Stand]
    private let unit: String
    private let rate: RateLimit
    private var requests: Int
    private var lastRequest: ContinuousClock.Instant?

    /// Notes where every roster concerned stands now; nil when Status cannot be had (then nothing is shown).
    init?(socket: SocketLocation, storefront: Storefront?) {
        guard let connection = try? DaemonConnection(socket), let status = Self.status(connection) else { return nil }
        self.connection = connection
        self.storefront = storefront
        let rosters = status.storefronts.filter { storefront == nil || $0.code == storefront?.code }
        before = Dictionary(rosters.map { (Self.roster($0), Self.stand($0)) }, uniquingKeysWith: { first, _ in first })
        unit = rosters.contains { $0.language != nil } ? "rosters" : "storefronts"
        rate = (try? ConfigLoader.load(path: status.configPath))?.lookup.rateLimit ?? LookupSettings().rateLimit
        requests = status.upstream.requests
    }

    func next() -> String? {
        guard let status = Self.status(connection) else { return nil }
        let now = ContinuousClock.now
        if status.upstream.requests != requests {
            requests = status.upstream.requests
            lastRequest = now
        }
        let done = status.storefronts.filter { entry in
            before[Self.roster(entry)].map { $0 != Self.stand(entry) } ?? false
        }.count
        let nextRequest = lastRequest.map { max(.zero, $0 + rate.interval - now) }
        let perMinute = rate.requestsPerMinute(rounded: .toNearestOrAwayFromZero)
        return ProgressLine(
            done: done, total: before.count, unit: unit, nextRequestIn: nextRequest,
            requestsLeft: before.count - done, requestsPerMinute: perMinute
        ).text
    }

    private static func status(_ connection: DaemonConnection) -> AdminStatusReply? {
        guard let reply = try? connection.call(ShowcaseInterfaces.Method.status, timeout: .seconds(2)) else {
            return nil
        }
        return try? AdminStatusReply(decoding: reply)
    }

    private static func roster(_ entry: AdminStatusReply.StorefrontStatus) -> Roster {
        Roster(code: entry.code, language: entry.language)
    }

    private static func stand(_ entry: AdminStatusReply.StorefrontStatus) -> Stand {
        Stand(fetchedAt: entry.fetchedAt, lastError: entry.lastError, state: entry.state.rawValue)
    }
}
