/// What became of the icons a one-shot run's documents reference (SPEC §17): each (artwork URL, size) counted once,
/// however many documents list it.
struct IconTally: Sendable, Equatable {
    /// Icons the documents reference: one per app artwork URL and `export.icons.sizes` entry.
    var referenced = 0
    /// Of those, the ones in `v1/icons/` and listed by the documents after the run.
    var mirrored = 0
    /// Refused by §16's rules (not an allowed host, a redirect, too large, not an image, the wrong pixel size).
    var refused = 0
    /// Not fetched: the transfer failed, or `--max-wait` ran out before it ended or began.
    var failed = 0

    /// `icons: 32 of 32 mirrored`, with the refused and failed counts when there are any.
    var line: String {
        var line = "icons: \(mirrored) of \(referenced) mirrored"
        if refused > 0 { line += ", \(refused) refused" }
        if failed > 0 { line += ", \(failed) failed" }
        return line
    }
}
