import ShowcaseCore

/// What a ``DaemonState`` transition tells its owner to do once the lock is released: the transition decides,
/// the owner (``StateOwner``) carries it out.
struct StateChange: Sendable {
    /// Why the export tree may be out of date.
    enum ExportReason: Sendable, Equatable {
        /// A roster or a history changed: export soon (changes that come together make one pass).
        case rosters
        /// The configuration changed: export at once.
        case configuration
    }

    /// Every answer may differ (a reload, an identity, the cache listing): every copy of an answer is stale.
    var everything = false
    /// Storefronts whose rosters changed: their copies are stale, and their watchers compare again.
    var storefronts: Set<Storefront> = []
    /// Storefronts whose watchers compare again without any roster change (a reload changed the overlay).
    var announced: Set<Storefront> = []
    /// The refresh queue changed: the worker looks again.
    var queueChanged = false
    /// Editions that left the queue: callers still waiting for their refresh are told they are not warm.
    var forgotten: [StorefrontEdition] = []
    /// Waits that end now (each taken off the books by the transition that returns it), with or without an answer.
    var endedWaits: [SettleWait.Ending] = []
    /// Listed cache files that turned out unusable: logged, and refetched (already expedited when warm).
    var unusable: [StorefrontEdition] = []
    /// Why to export, if the export is configured: ``StateOwner`` hands it to the export schedule
    /// (``DaemonState/exportWanted(_:at:)``) before releasing the lock.
    var export: ExportReason?
    /// The export schedule changed: the exporter's loop looks again.
    var exportScheduleChanged = false
    /// `Admin.Export` calls answered by the pass that just ended, resumed with its report once the lock is released.
    var exportReplies: [ExportBook.Reply] = []
    /// Icon downloads to start now: ``StateOwner`` hands them to the ``IconFetcher``.
    var iconDownloads: [IconBook.Download] = []
    /// ``IconFetcher/settled()`` calls to resume: nothing is pending any more, or the call was cancelled.
    var iconsSettled: [CheckedContinuation<Void, Never>] = []
    /// Who waited for shutdown and goes on now.
    var resumed: [CheckedContinuation<Void, Never>] = []

    /// Nothing to do.
    static let none = StateChange()

    /// Adds what `other` asks for.
    mutating func merge(_ other: StateChange) {
        everything = everything || other.everything
        storefronts.formUnion(other.storefronts)
        announced.formUnion(other.announced)
        queueChanged = queueChanged || other.queueChanged
        forgotten += other.forgotten
        endedWaits += other.endedWaits
        unusable += other.unusable
        exportScheduleChanged = exportScheduleChanged || other.exportScheduleChanged
        exportReplies += other.exportReplies
        iconDownloads += other.iconDownloads
        iconsSettled += other.iconsSettled
        resumed += other.resumed
        if other.export == .configuration || export == nil { export = other.export ?? export }
    }
}
