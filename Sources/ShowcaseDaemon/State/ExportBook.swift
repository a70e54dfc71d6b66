import FoundationEssentials
import ShowcaseConfig
import ShowcaseCore
import ShowcaseExport

/// What the export remembers between passes, as a part of ``DaemonState``: the `Admin.Export` calls waiting for a
/// pass, the last pass for Status, what one pass hands the next (``Carried``: the export memory and the icon
/// index) and each host's settings epoch.
///
/// The ``ExportSchedule`` beside it decides when a pass runs and which pass answers a call; this book holds what
/// those decisions act on. A call's continuation is booked here, under the number the schedule knows it by, in
/// the same transition that tells the schedule of it, so no pass can answer a number without one; the transition
/// that ends a pass takes the continuations it answers off the books and returns them (``Reply``) for the owner
/// to resume outside the lock.
///
/// A host's epoch (``epochs``) stays the same while its settings that shape its exported apps (its
/// ``HostConfiguration`` with its overlay and taglines, the attribution, `lookup.artwork_hosts`) stay the same, and
/// is new whenever they change: it is a part of each of its rosters' ``ExportRoster/fingerprint``, so a reload that
/// changes one host's tagline re-renders that host's files only. The reload that changes the configuration sets
/// them (``reload(from:to:)``); the export plan only reads them.
struct ExportBook: Sendable {
    /// A finished pass, for Status.
    struct Pass: Sendable {
        /// What it wrote, kept and removed, and what failed.
        var report: ExportReport
        /// When it ended.
        var finishedAt: Date
    }

    /// How an `Admin.Export` call waits for the report of the pass that answers it (nil: no export configured).
    typealias Continuation = CheckedContinuation<ExportReport?, Never>

    /// An icon index and the `state.directory` it was read from.
    typealias KeptIcons = (directory: String, index: IconIndex)

    /// What a pass takes from the last one when it starts, and hands to the next when it ends.
    struct Carried: Sendable {
        /// What the passes know of the files they checked, so the next one need not read them back (it judges
        /// whether a file has settled by the exporter's clock); nil before the first pass.
        var memory: ExportMemory?
        /// The icon index as the last pass (or a one-shot run's icon fetch) left it, and the `state.directory` it
        /// was read from.
        var icons: KeptIcons?
    }

    /// What a pass that had an export to write hands back when it ends.
    struct Outcome: Sendable {
        /// The pass, for Status.
        var pass: Pass
        /// What the next pass starts from.
        var carried: Carried
    }

    /// The answer to one `Admin.Export` call: its continuation and the report of the pass that answers it (nil
    /// when no export is configured), resumed by ``StateOwner`` once the lock is released.
    struct Reply: Sendable {
        /// The call's continuation.
        let continuation: Continuation
        /// What the call gets.
        let report: ExportReport?

        /// Resumes the call with ``report``.
        func send() { continuation.resume(returning: report) }
    }

    /// What of the configuration shapes a host's exported apps besides its rosters.
    private struct HostSettings: Equatable {
        var host: HostConfiguration
        var attribution: Attribution
        var artworkHosts: [URLPrefix]

        init(_ host: HostConfiguration, in configuration: Configuration) {
            self.host = host
            attribution = configuration.attribution
            artworkHosts = configuration.lookup.artworkHosts
        }
    }

    /// The continuations of `Admin.Export` calls waiting for a pass, by the number the schedule knows each by.
    private var calls: [ExportSchedule.Call: Continuation] = [:]
    /// The last call number handed out.
    private var lastCall: ExportSchedule.Call = 0
    /// The last finished pass, if any.
    private(set) var last: Pass?
    /// What the next pass starts from.
    private(set) var carried = Carried()
    /// Each configured host's settings epoch, by bundle id.
    private(set) var epochs: [String: Int] = [:]
    /// The last epoch handed out: epochs only grow, so a host never gets back one its files were rendered with.
    private var lastEpoch = 0
    /// The icons the running pass asked for so far: the writer builds a roster's apps (and asks for their icons)
    /// only when it renders it, possibly on several threads at once, so they are collected here, behind the owner's
    /// lock, rather than returned; the pass takes them when its writer is done (``takeAskedIcons()``).
    private var askedIcons: [IconFetcher.Request] = []

    /// The book of a daemon started with `config`: every host gets an epoch, no pass has run.
    init(_ config: ConfigSnapshot) {
        epochs = numbering(config, after: nil)
    }

    // MARK: Transitions

    /// Books `continuation`; returns the number the schedule knows the call by.
    mutating func book(_ continuation: Continuation) -> ExportSchedule.Call {
        lastCall &+= 1
        calls[lastCall] = continuation
        return lastCall
    }

    /// Takes `answered` off the books: the replies that give each the pass's `report`.
    mutating func answer(_ answered: [ExportSchedule.Call], with report: ExportReport?) -> [Reply] {
        answered.compactMap { calls.removeValue(forKey: $0).map { Reply(continuation: $0, report: report) } }
    }

    /// A pass ended with `outcome`: it is the last pass, and the next starts from what it carried.
    mutating func passed(_ outcome: Outcome) {
        last = outcome.pass
        carried = outcome.carried
    }

    /// The running pass built a roster whose apps lack `requests`.
    mutating func asked(icons requests: [IconFetcher.Request]) { askedIcons += requests }

    /// What the running pass asked for; the next pass starts with none.
    mutating func takeAskedIcons() -> [IconFetcher.Request] {
        defer { askedIcons = [] }
        return askedIcons
    }

    /// `index`, read from `directory` and checked against the tree, is the one the next pass starts from.
    mutating func keep(icons index: IconIndex, in directory: String) {
        carried.icons = (directory, index)
    }

    /// The configuration `old` became `new`: a host whose export settings are the same keeps its epoch, a host whose
    /// settings changed (or that is new) gets a new one, and a host no longer configured is forgotten — so one that
    /// comes back later gets a new one too.
    mutating func reload(from old: ConfigSnapshot, to new: ConfigSnapshot) {
        epochs = numbering(new, after: old)
    }

    /// Every host of `config` with its epoch: the one it has when `old` gave it the same settings, else a new one.
    /// A bundle id configured twice counts as its first host, as queries do (``ConfigSnapshot/hostsByBundleID``).
    private mutating func numbering(_ config: ConfigSnapshot, after old: ConfigSnapshot?) -> [String: Int] {
        var result: [String: Int] = [:]
        for host in config.configuration.hosts where result[host.bundleID] == nil {
            if let old, let epoch = epochs[host.bundleID], let before = old.hostsByBundleID[host.bundleID],
                HostSettings(before, in: old.configuration) == HostSettings(host, in: config.configuration)
            {
                result[host.bundleID] = epoch
            } else {
                lastEpoch &+= 1
                result[host.bundleID] = lastEpoch
            }
        }
        return result
    }
}
