/// How one storefront's refresh ended, as far as scheduling cares.
public enum RefreshOutcome: Sendable, Equatable {
    /// Fetched and stored; `changed` says whether the content differed (a new revision).
    case updated(changed: Bool)
    /// Not fetched or not usable; the scheduler retries with backoff.
    case failed(RefreshFailure)
}
