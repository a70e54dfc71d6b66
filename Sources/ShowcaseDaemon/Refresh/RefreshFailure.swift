import ShowcaseCore

/// Why a refresh did not produce a roster: the message shown in `Admin.Refresh`'s `failed` list and Status.
public struct RefreshFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message as clients see it.
    public let description: String
    /// The lookup failure behind it, when there was one (the scheduler honours a throttle's `Retry-After`).
    public let error: LookupError?

    /// A failure described by `description`, with the lookup error behind it when there is one.
    public init(_ description: String, error: LookupError? = nil) {
        self.description = description
        self.error = error
    }

    /// A failure caused by `error`, shown with its description.
    public init(_ error: LookupError) { self.init(error.description, error: error) }

    static let shuttingDown = RefreshFailure("the daemon is shutting down; the refresh did not run")
    static let notWarm = RefreshFailure("the storefront was removed from the configuration before it was refreshed")
}
