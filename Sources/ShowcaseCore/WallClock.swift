import Foundation

/// The injected source of "now" for freshness and scheduling; tests pass a fixed or stepped clock.
public protocol WallClock: Sendable {
    /// The current wall-clock time.
    var now: Date { get }
}

/// The real clock.
public struct SystemClock: WallClock {
    /// Creates the system clock.
    public init() {}
    /// `Date()`.
    public var now: Date { Date() }
}
