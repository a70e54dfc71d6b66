/// A fault armed on the server: applies to requests whose target contains `matching` (all when nil),
/// for the next `remaining` of them, or until cleared when `remaining` is nil.
public struct ReplayFaultRule: Sendable, Equatable {
    public var fault: ReplayFault
    public var matching: String?
    public var remaining: Int?

    public init(_ fault: ReplayFault, matching: String? = nil, count: Int? = nil) {
        self.fault = fault
        self.matching = matching
        self.remaining = count
    }
}
