/// Where the fields of one served app go, one call per field, in the order ``ResolvedApp/writeFields(to:)`` calls
/// them: a Varlink object for `Roster.Get`, `GetApp` and `Watch`, a member of an export document, a test's list.
///
/// A writer only spells a value in its own format. Which fields an app has, their names and order, and when an
/// optional one is left out are decided once, by the projection, so a field added there reaches every output
/// and no output can rename or drop one on its own.
public protocol AppFieldWriter {
    /// An integer field (`id`, `artistId`).
    mutating func int(_ name: String, _ value: Int)
    /// A string field (`name`, `storeUrl`).
    mutating func string(_ name: String, _ value: String)
    /// A number field (`price`).
    mutating func double(_ name: String, _ value: Double)
    /// A list of strings (`devices`).
    mutating func strings(_ name: String, _ values: [String])
}
