/// What ``ResolvedApp/writeFields(to:)`` writes for one app, as values: two apps a reply would show alike write
/// equal lists. This is how a refresh decides whether an app changed (``App/hasSameServedFields(as:)``), so the
/// comparison covers exactly the served fields — a field added to the projection counts from then on, and one the
/// projection leaves out (ratings, version) never does.
struct ServedValues: AppFieldWriter, Equatable {
    /// One field's value, in the writer's four kinds.
    enum Value: Equatable {
        case int(Int)
        case string(String)
        case double(Double)
        case strings([String])
    }

    /// The fields in the projection's order.
    private(set) var fields: [(name: String, value: Value)] = []

    /// The served values of `app` with `storeUrl` and no tagline (a tagline comes from the overlay, not the app).
    init(of app: App, storeUrl: String) {
        fields.reserveCapacity(16)
        ResolvedApp(app: app, storeUrl: storeUrl, tagline: nil).writeFields(to: &self)
    }

    mutating func int(_ name: String, _ value: Int) { fields.append((name, .int(value))) }
    mutating func string(_ name: String, _ value: String) { fields.append((name, .string(value))) }
    mutating func double(_ name: String, _ value: Double) { fields.append((name, .double(value))) }
    mutating func strings(_ name: String, _ values: [String]) { fields.append((name, .strings(values))) }

    static func == (lhs: ServedValues, rhs: ServedValues) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }
}
