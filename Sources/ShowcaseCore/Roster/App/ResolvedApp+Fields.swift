extension ResolvedApp {
    /// The app as served: the one ordered field list of the Varlink `App` type, which the export's app object
    /// carries too, written into `writer`. Optional fields are left out when absent, never written as `null`.
    ///
    /// The order is the IDL's (`ShowcaseInterfaces.roster`); a new field goes at the end, here, and in the
    /// contract (the IDL text and `RosterApp`). Every value is the resolved one: the overlay's order and
    /// exclusions, the attributed store URL and the tagline for the query's locale were applied by
    /// ``RosterQuery``, which also left the host out.
    @inlinable
    public func writeFields<Writer: AppFieldWriter>(to writer: inout Writer) {
        writer.int("id", app.id)
        writer.int("artistId", app.artistId)
        writer.string("name", app.name)
        writer.string("bundleId", app.bundleId)
        writer.string("genre", app.genre)
        if let formattedPrice = app.formattedPrice { writer.string("formattedPrice", formattedPrice) }
        if let price = app.price { writer.double("price", price) }
        if let currency = app.currency { writer.string("currency", currency) }
        writer.string("platform", app.platform.rawValue)
        writer.strings("devices", app.devices.names)
        writer.string("minimumOsVersion", app.minimumOsVersion)
        writer.string("iconUrl", app.iconUrl)
        writer.string("storeUrl", storeUrl)
        if let tagline { writer.string("tagline", tagline) }
        if let genreId = app.genreId { writer.int("genreId", genreId) }
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
