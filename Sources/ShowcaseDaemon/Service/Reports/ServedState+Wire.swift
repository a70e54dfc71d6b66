import ShowcaseAPI
import ShowcaseCore

extension ServedState {
    /// The state as `ShowcaseAPI` names it on the wire: the same word.
    var wire: RosterState { RosterState(rawValue: rawValue) }
}
