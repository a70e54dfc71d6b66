import ShowcaseCore

/// Which history: one host's roster in one storefront, in one language when the storefront is configured with
/// `languages`. Serials count per key.
///
/// On disk, under `<state.directory>/history/<host>/`: `<storefront>.log` and `<storefront>.baseline` for a plain
/// storefront, `<storefront>-<language>.log` and `.baseline` for one language of it. Host bundle ids, storefront
/// codes and language codes are validated names (`[A-Za-z0-9.-]`, two letters), so a name never escapes.
public struct HistoryKey: Sendable, Hashable, CustomStringConvertible {
    /// The host's bundle id, as configured (and as the export path spells it).
    public var host: String
    /// The roster's storefront and language.
    public var edition: StorefrontEdition

    /// The history of `host` in `edition`.
    public init(host: String, edition: StorefrontEdition) {
        self.host = host
        self.edition = edition
    }

    /// `ca` or `ca-fr`: the file names' stem.
    var stem: String { edition.storefront.code + (edition.language.map { "-" + $0.code } ?? "") }
    /// The log's file name.
    var logName: String { stem + ".log" }
    /// The baseline's file name.
    var baselineName: String { stem + ".baseline" }

    /// `com.example.Host ca/fr`, for messages.
    public var description: String { "\(host) \(edition)" }
}
