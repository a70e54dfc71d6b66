/// A fault armed on the server: applies to requests whose target contains `matching` (all when nil),
/// for the next `remaining` of them, or until cleared when `remaining` is nil.
public struct ReplayFaultRule: Sendable, Equatable {
    /// What the matching requests get instead of their fixture.
    public var fault: ReplayFault
    /// A substring of the request target (`country=jp`) that selects requests; nil matches every request.
    public var matching: String?
    /// How many more matching requests get the fault; the rule is removed when it reaches zero. Nil: until cleared.
    public var remaining: Int?

    /// Arms `fault` for requests whose target contains `matching`, `count` times (nil: until cleared).
    public init(_ fault: ReplayFault, matching: String? = nil, count: Int? = nil) {
        self.fault = fault
        self.matching = matching
        self.remaining = count
    }
}
