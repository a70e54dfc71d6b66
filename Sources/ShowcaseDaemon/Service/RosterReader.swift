import FoundationEssentials
import ShowcaseCore

/// The roster a query gets now, as a ``RosterView``: what `Roster.Get`, `GetApp`, `Watch`, Status, Health and a
/// one-shot run's report are built from. Built from the two parts it uses: the state and the clock.
struct RosterReader: Sendable {
    /// The daemon's state and its one owner.
    let state: StateOwner
    /// The daemon's one clock (an answer's freshness is judged at its `now`).
    let clock: any ShowcaseClock

    /// The roster `request` gets now. With `keepWarm`, a storefront outside the warm set is fetched once
    /// (concurrent queries share the fetch) and kept warm from then on.
    func view(for request: RosterRequest, keepWarm: Bool = true) -> RosterView {
        let found = state.answer(
            host: request.host.bundleID, edition: request.edition, now: clock.now, under: request.snapshot)
        let view = RosterView(found, request: request)
        if keepWarm { keepWarmOnDemand(request.storefront, cachedAt: view.fetchedAt) }
        return view
    }

    /// A storefront outside the warm set: fetch it once and keep it warm. With a cached roster (`fetchedAt`) it
    /// is scheduled from that fetch time instead — refreshed at once only if stale — so a roster served from the
    /// cache never ages unrefreshed. A storefront not in the configuration has one edition, fetched without
    /// `lang`.
    func keepWarmOnDemand(_ storefront: Storefront, cachedAt fetchedAt: Date? = nil) {
        guard !state.isWarm(storefront) else { return }
        let now = state.moment
        state.update { state, draw in state.keepWarmOnDemand(storefront, cachedAt: fetchedAt, at: now, draw: draw) }
    }
}
