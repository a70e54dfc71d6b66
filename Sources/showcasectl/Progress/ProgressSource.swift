/// Where the in-place progress of a long call comes from (SPEC §17): asked every half second, on a thread of its
/// own and over a connection of its own, what the call is waiting for now.
///
/// Built on the caller's thread before the call starts (so it can note where things stood), then used only by the
/// progress thread: one thread at a time, which is why conforming classes may be `@unchecked Sendable`.
protocol ProgressSource: AnyObject, Sendable {
    /// The line to show now, or nil to keep the one shown (the daemon did not answer this time).
    func next() -> String?
}
