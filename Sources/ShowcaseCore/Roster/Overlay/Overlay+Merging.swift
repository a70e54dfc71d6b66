extension Overlay {
    /// This overlay (a host's own) laid over `base` (the global one): the host's curation wins where
    /// the two disagree, and nothing the global overlay says is lost.
    ///
    /// - `order`: this overlay's pins first, then the base's pins it does not already name. An id is
    ///   pinned once, at its first position.
    /// - `excluded`: the union. Hiding is never undone by a merge, so an app hidden globally stays hidden
    ///   for every host.
    /// - `taglines`: this overlay's tagline for an id replaces the base's whole entry (a host may want a
    ///   different voice; mixing locales from two authors would read oddly).
    /// - `productPages`: likewise, this overlay's entry for an id replaces the base's whole entry.
    /// - `labels`: by language and key; this overlay's text for a key in a language wins, the base's other keys
    ///   and languages stay (a label is one phrase, so there is no voice to keep whole).
    public func merged(over base: Overlay) -> Overlay {
        var seen = Set<Int>()
        var order: [Int] = []
        for id in self.order + base.order where seen.insert(id).inserted {
            order.append(id)
        }
        return Overlay(
            order: order,
            excluded: excluded.union(base.excluded),
            taglines: base.taglines.merging(taglines) { _, mine in mine },
            productPages: base.productPages.merging(productPages) { _, mine in mine },
            labels: Labels(
                overrides: base.labels.overrides.merging(labels.overrides) { theirs, mine in
                    theirs.merging(mine) { _, text in text }
                }))
    }
}
