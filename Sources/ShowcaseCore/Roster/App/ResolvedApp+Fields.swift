extension ResolvedApp {
    /// The app as served: the one ordered field list of the Varlink `App` type, which the export's app object
    /// carries too, written into `writer`. Optional fields are left out when absent, never written as `null`.
    ///
    /// The fields and their order are ``AppField/all``'s, the table every surface reads; a new field is declared
    /// there. Every value is the resolved one: the overlay's order and exclusions, the attributed store URL and the
    /// tagline for the query's locale were applied by ``RosterQuery``, which also left the host out.
    public func writeFields<Writer: AppFieldWriter>(to writer: inout Writer) {
        for field in AppField.all {
            switch field.read(self) {
            case .int(let value)?: writer.int(field.name, value)
            case .string(let value)?: writer.string(field.name, value)
            case .float(let value)?: writer.double(field.name, value)
            case .strings(let values)?: writer.strings(field.name, values)
            case nil: break
            }
        }
    }

    /// The names of the fields ``writeFields(to:)`` writes for this app, in its order: what a check of an output
    /// against the projection compares with.
    public var fieldNames: [String] {
        var names = FieldNames()
        writeFields(to: &names)
        return names.names
    }
}

/// An ``AppFieldWriter`` that keeps only the names.
private struct FieldNames: AppFieldWriter {
    var names: [String] = []
    mutating func int(_ name: String, _ value: Int) { names.append(name) }
    mutating func string(_ name: String, _ value: String) { names.append(name) }
    mutating func double(_ name: String, _ value: Double) { names.append(name) }
    mutating func strings(_ name: String, _ values: [String]) { names.append(name) }
}
