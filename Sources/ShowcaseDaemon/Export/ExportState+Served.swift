import ShowcaseExport

extension ExportState {
    /// The state `index.json` shows for a roster the daemon serves as `served`: the same five words as Status.
    init(_ served: ServedState) {
        switch served {
        case .fresh: self = .fresh
        case .stale: self = .stale
        case .warming: self = .warming
        case .unavailable: self = .unavailable
        case .failed: self = .failed
        }
    }
}
