import ShowcaseConfig

extension Configuration {
    /// Where the change history lives (`state.directory`; its `history/` folder holds the logs).
    var historyDirectory: String { state.directory }
    /// `history.keep`: entries kept per (host, storefront, language).
    var historyKeep: Int { history.keep }
}
