import FoundationEssentials
import ShowcaseCore
import Varlink

/// What every `Roster.Watch` stream of one host shows for one storefront, resolved and its apps encoded once per
/// change (``WatchApps``), and each revision's reply serialized once around those bytes, however many subscribers
/// watch it.
///
/// The first stream to ask after a change resolves it, and the others get the same ``Current`` — the same `apps`
/// bytes, too, for as long as the apps compare equal, so a stream's "did anything change since I sent?" is the
/// bytes' identity check rather than a comparison of every app: the fan-out's cost does not grow with the
/// number of subscribers times the roster's size.
///
/// An entry is current while the version of the view it was resolved from holds (``AnswerVersion``, the rule the
/// ``ReplyCache`` uses too): read with the answer, so a change racing with it leaves the entry stale rather than
/// wrongly current.
/// Confined to the watch queue (``WatchHub``), so it needs no lock; one entry per watched (host, storefront),
/// dropped when the last stream ends.
final class WatchReplies: @unchecked Sendable {
    /// One (host, storefront) as every stream sees it now, and its encoded `continues: true` replies.
    final class Current {
        /// The resolved view: state, revision and what an unservable state is answered with.
        let view: RosterView
        /// The apps a reply shows, encoded once. The same storage while they stay equal across changes.
        let apps: WatchApps
        /// Replies by revision: streams that started at different times may number the same apps differently.
        fileprivate var encoded: [Int: EncodedReply]

        fileprivate init(view: RosterView, apps: WatchApps, encoded: [Int: EncodedReply] = [:]) {
            self.view = view
            self.apps = apps
            self.encoded = encoded
        }

        /// Whether `other` shows the same: then its encoded replies hold for this one too.
        fileprivate func showsSame(as other: Current) -> Bool {
            view.storefront == other.view.storefront && view.state == other.view.state && apps == other.apps
        }

        /// The `continues: true` reply showing ``apps`` at `revision`; throws the error an unservable state
        /// (`unavailable`, `failed`) is answered with.
        func reply(revision: Int) throws(VarlinkError) -> EncodedReply {
            if let reply = encoded[revision] { return reply }
            let reply = EncodedReply(
                encodedParameters: try ReplyEncoding.watch(view, revision: revision, apps: apps), continues: true)
            if encoded.count >= 4 { encoded.removeAll() }
            encoded[revision] = reply
            return reply
        }
    }

    private struct Key: Hashable {
        var host: String
        var storefront: Storefront
    }

    private let reader: RosterReader
    private var entries: [Key: Current] = [:]

    /// Replies resolved with `reader`.
    init(reader: RosterReader) {
        self.reader = reader
    }

    /// What `host` sees in `storefront` now; nil when the configuration no longer names `host`.
    func current(host: String, storefront: Storefront) -> Current? {
        let key = Key(host: host, storefront: storefront)
        let old = entries[key]
        if let old, old.view.version.holds(atVersion: reader.state.version, now: reader.clock.now) { return old }
        let snapshot = reader.state.config
        guard let hostConfig = snapshot.host(named: host) else {
            entries[key] = nil
            return nil
        }
        let view = reader.view(
            for: RosterRequest(snapshot: snapshot, storefront: storefront, host: hostConfig), keepWarm: false)
        var current = Current(view: view, apps: WatchApps(view.apps))
        if let previous = old, previous.showsSame(as: current) {
            current = Current(view: view, apps: previous.apps, encoded: previous.encoded)
        }
        entries[key] = current
        return current
    }

    /// Forgets every entry (the last stream ended): nothing is kept for storefronts nobody watches.
    func removeAll() { entries.removeAll() }
}
