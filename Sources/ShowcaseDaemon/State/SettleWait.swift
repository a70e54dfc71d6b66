import ShowcaseCore

/// One `Roster.Get` waiting for a warming roster (its `waitMs`): answered once, by whichever comes first of the
/// refresh finishing, the wait running out, or the caller's connection closing (then nothing is sent).
///
/// A wait keeps no state of its own: it has ended when it is no longer in the state's ``WaitBook``. Each of its
/// three ends is a transition of ``DaemonState`` that takes it off the books under the owner's lock — the fetch's
/// end (``DaemonState/settleWaits(_:)``), the timer or the hang-up (``DaemonState/endWait(_:for:deliver:)``) — and
/// only the one that finds it there hands it on in its ``StateChange`` (``StateChange/endedWaits``); the others
/// find nothing. So ``StateOwner`` ends it exactly once, outside the lock: the timer is cancelled at once (an
/// abandoned or answered wait keeps no task alive, so a client cannot pile up sleeping timers by sending calls and
/// hanging up) and ``answer`` runs with whether to deliver.
///
/// The timer task is made with the wait's ``id`` under the owner's lock, in the update that books the wait, so it
/// cannot end a wait that is not on the books yet.
struct SettleWait: Sendable {
    /// Names one wait in the books: a fresh object per wait, equal only to itself.
    final class ID: Hashable, Sendable {
        /// A name no other wait has.
        init() {}

        static func == (lhs: ID, rhs: ID) -> Bool { lhs === rhs }

        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    /// How a wait ends: the wait taken off the books, and whether its caller gets an answer.
    struct Ending: Sendable {
        /// The wait that ended.
        let wait: SettleWait
        /// False when the caller is gone (it hung up) or was never booked (the book was full).
        let deliver: Bool

        /// Cancels the timer and runs the wait's ``SettleWait/answer`` (by ``StateOwner``, outside the lock).
        func carryOut() {
            wait.timer.cancel()
            wait.answer(deliver)
        }
    }

    /// The wait's name in the books.
    let id: ID
    /// Ends the wait with an answer when `waitMs` has passed (``DaemonState/endWait(_:for:deliver:)``).
    let timer: Task<Void, Never>
    /// Answers the caller when `deliver` is true; runs once, when the wait ends.
    let answer: @Sendable (_ deliver: Bool) -> Void
}
