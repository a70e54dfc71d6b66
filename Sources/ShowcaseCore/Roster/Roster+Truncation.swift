extension Roster {
    /// True when the body held as many software rows as the request's `limit` (200), the endpoint's maximum: a
    /// developer with more apps is cut there without any sign in the answer, so Status and the log say so.
    /// Counts dropped rows too, since they were rows of the answer; a roster read from the cache counts its apps.
    public var isTruncated: Bool { apps.count &+ droppedRows.count >= LookupRequest.rosterLimit }
}
