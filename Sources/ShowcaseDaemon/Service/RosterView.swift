import FoundationEssentials
import ShowcaseCore

/// The roster one host sees in one storefront at one moment, as every roster reply is built from it: `Get`,
/// `GetApp`, `Watch` (and the static export) differ only in how they encode it.
///
/// Built from the store's ``RosterAnswer`` and the request: one ``ServedState``, the fetch time, and the
/// resolution (platform, OS floor, the host itself excluded — by its resolved identity, or `hosts[].app_id`
/// before that — overlay and attribution), applied lazily so a method that needs one app pays for one app.
struct RosterView: Sendable {
    /// The storefront.
    let storefront: Storefront
    /// Which of the storefront's rosters this is (its language, for a storefront configured with `languages`).
    let edition: StorefrontEdition
    /// The querying host's bundle id.
    let host: String
    /// The state on the wire.
    let state: ServedState
    /// The store's revision of this roster (what `Watch` compares); negative for an identity failure.
    let revision: Int
    /// The roster behind a `fresh` or `stale` state.
    let roster: Roster?
    /// Why there is no roster to serve, for `unavailable` and `failed`.
    let problem: LookupError?
    /// How a roster is resolved for this request.
    let resolution: RosterQuery
    /// Until when a `fresh` roster stays fresh.
    let freshUntil: Date?
    /// What the view was computed from: a copy of an answer built from it holds while this does.
    let version: AnswerVersion

    /// The view of what the state answered (`found`) for `request`.
    init(_ found: StateOwner.Answer, request: RosterRequest) {
        self.init(
            found.answer, revision: found.revision, identity: found.identity, version: found.version, request: request)
    }

    /// The view of `answer` (at `revision`, computed from `version`) for `request`, where the host resolved to
    /// `identity` if it has.
    init(
        _ answer: RosterAnswer, revision: Int, identity: HostIdentity?, version: AnswerVersion, request: RosterRequest
    ) {
        storefront = request.storefront
        edition = request.edition
        host = request.host.bundleID
        state = ServedState(answer)
        self.revision = revision
        let configuration = request.snapshot.configuration
        var query = RosterQuery(
            hostBundleId: request.host.bundleID, hostTrackId: identity?.trackId ?? request.host.appID,
            platform: request.platform, device: request.device, osVersion: request.osVersion, locale: request.locale,
            overlay: request.host.overlay, attribution: configuration.attribution)
        query.everyDevice = request.everyDevice
        query.surface = request.surface
        resolution = query
        switch answer {
        case .roster(let roster, let freshness):
            self.roster = roster
            problem = nil
            freshUntil =
                freshness == .fresh ? roster.fetchedAt.addingTimeInterval(configuration.refresh.interval.seconds) : nil
        case .warming:
            roster = nil
            problem = nil
            freshUntil = nil
        case .unavailable(let error), .failed(let error):
            roster = nil
            problem = error
            freshUntil = nil
        }
        var version = version
        version.expires = freshUntil
        self.version = version
    }

    /// When the roster was fetched, for `fresh` and `stale`.
    var fetchedAt: Date? { roster?.fetchedAt }

    /// The apps the request gets, in order (empty while warming).
    var apps: [ResolvedApp] { roster.map(resolution.resolve) ?? [] }

    /// How many apps ``apps`` holds, counted without resolving them (Status and the metrics); 0 while warming.
    var servedCount: Int { roster.map(resolution.servedCount) ?? 0 }

    /// One app by id, resolved without the platform, floor and self-exclusion filters (`GetApp` names the app);
    /// nil when the roster does not list it or the overlay excludes it.
    func app(id: Int) -> ResolvedApp? { roster.flatMap { resolution.resolveApp(id: id, in: $0) } }
}
