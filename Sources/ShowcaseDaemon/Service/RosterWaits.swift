import ShowcaseCore

/// `Roster.Get`'s `waitMs` on a warming roster: the call is booked in the state's ``WaitBook`` (a ``SettleWait``)
/// and answered once its storefront settles, its wait runs out, or never when its caller hangs up. Built from the
/// parts it uses: the state, the clock its timers run on, the scheduler that runs the shared fetch, and the reader
/// the answer is built with.
struct RosterWaits: Sendable {
    /// The daemon's state and its one owner (the waits are its ``DaemonState/waits``).
    let state: StateOwner
    /// The clock the waits' timers sleep on.
    let clock: any ShowcaseClock
    /// Runs the fetch an edition's first wait asks for.
    let scheduler: RefreshScheduler
    /// Builds the answer a settled wait delivers.
    let reader: RosterReader

    /// Answers `request` once its storefront has settled (the refresh this asks for finished) or `wait` has
    /// passed, whichever comes first. Returns the way to abandon the wait (its caller hung up: nothing is sent, the
    /// timer is cancelled), or nil without waiting when the state's ``WaitBook`` is full: the caller answers at once
    /// instead, so no number of calls can grow memory without bound. Waits on one storefront share one fetch.
    func whenSettled(
        _ request: RosterRequest, within wait: Duration, _ answer: @escaping @Sendable (RosterView) -> Void
    ) -> (@Sendable () -> Void)? {
        let edition = request.edition
        let (owner, clock, reader) = (state, clock, reader)
        let id = SettleWait.ID()
        let deliver: @Sendable (Bool) -> Void = { deliver in
            if deliver { answer(reader.view(for: request.with(owner.config), keepWarm: false)) }
        }
        let first = owner.update { state, _ in
            // Made in the update that books the wait, under the owner's lock: it cannot end a wait not booked yet.
            let timer = Task {
                do { try await clock.sleep(for: wait) } catch { return }
                owner.update { state, _ in state.endWait(id, for: edition, deliver: true) }
            }
            return state.admitWait(SettleWait(id: id, timer: timer, answer: deliver), for: edition)
        }
        guard let first else { return nil }
        if first {
            let scheduler = self.scheduler
            Task {
                owner.update { state, _ in state.prioritize(edition) }
                _ = await scheduler.refreshNow(edition)
                owner.update { state, _ in state.settleWaits(edition) }
            }
        }
        return { owner.update { state, _ in state.endWait(id, for: edition, deliver: false) } }
    }
}
