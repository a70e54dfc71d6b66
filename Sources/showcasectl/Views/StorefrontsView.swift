import ShowcaseAPI

/// The human form of `showcasectl storefronts`: code, alpha-3, name, and whether it is kept warm.
enum StorefrontsView {
    static func lines(_ reply: RosterStorefrontsReply, console: Console) -> [String] {
        var table = TextTable([
            .init(title: "CODE"), .init(title: "ALPHA-3"), .init(title: "WARM"), .init(title: "NAME"),
        ])
        for entry in reply.storefronts {
            table.append([entry.code, entry.alpha3, entry.warm ? "yes" : "no", entry.name])
        }
        let warm = reply.storefronts.filter(\.warm).count
        return table.render(console: console) + ["\(reply.storefronts.count) storefronts, \(warm) kept warm"]
    }
}
