import FoundationEssentials

/// The refresh state of one storefront's roster: what is cached and how the last refresh ended.
///
/// This is the one place that decides when a stale roster may stand in for a failed refresh. A transport
/// failure (connection, timeout, non-2xx, 403/429) says nothing about the data, so the cached roster keeps
/// being served. A diagnostic (malformed body, missing entity parameter, host not found) says upstream or the
/// configuration changed: serving the cache would keep that quiet for as long as nobody looks, so the error is
/// answered instead — while the cached roster stays, untouched, for when a refresh succeeds again.
public struct RosterRecord: Sendable {
    /// The last successfully fetched roster (from the network or the cache file), if any.
    public private(set) var roster: Roster?
    /// How the last refresh failed (what Status shows); nil after a success or before any refresh.
    public private(set) var lastError: LookupError?
    /// The diagnostic that the answer reports until a refresh succeeds. A later transport failure does not
    /// clear it: only a success proves upstream is sound again.
    public private(set) var diagnostic: LookupError?
    /// Bumped whenever what a query gets changes: a roster with different content, or the answer switching to
    /// or from a diagnostic. Identical refreshes and transport failures leave it alone (`Watch` sends nothing).
    public private(set) var revision: Int

    /// A record starting from `roster` (e.g. loaded from the cache at startup), or empty (warming).
    public init(roster: Roster? = nil) {
        self.roster = roster
        self.lastError = nil
        self.diagnostic = nil
        self.revision = roster == nil ? 0 : 1
    }

    /// Records a refresh outcome. Returns true when the revision changed.
    @discardableResult
    public mutating func record(_ outcome: Result<Roster, LookupError>) -> Bool {
        let changed: Bool
        switch outcome {
        case .success(let fetched):
            changed = diagnostic != nil || roster.map { !$0.hasSameContent(as: fetched) } ?? true
            roster = fetched
            lastError = nil
            diagnostic = nil
        case .failure(let error):
            lastError = error
            if error.isTransport {
                changed = false
            } else {
                changed = diagnostic != error
                diagnostic = error
            }
        }
        if changed { revision += 1 }
        return changed
    }

    /// The answer at `now` for a freshness `lifetime`.
    public func answer(now: Date, lifetime: Duration) -> RosterAnswer {
        if let diagnostic { return .failed(diagnostic) }
        if let roster { return .roster(roster, Freshness(fetchedAt: roster.fetchedAt, now: now, lifetime: lifetime)) }
        if let lastError { return .unavailable(lastError) }
        return .warming
    }
}
