import ShowcaseCore
import Varlink

/// The latest encoded `Roster.Watch` reply per (host, storefront), shared by every stream: a new revision is
/// encoded once, however many subscribers watch it, and each of them writes the same bytes.
///
/// Confined to the watch queue (every ``WatchStream`` sends from it), so it needs no lock. It keeps one entry
/// per watched (host, storefront): the revision, served state and configuration generation it was built for.
/// Only `continues: true` replies are shared; a stream's final reply is rare and encoded on its own.
final class WatchReplies: @unchecked Sendable {
    private struct Key: Hashable {
        var host: String
        var storefront: Storefront
    }

    private struct Entry {
        var revision: Int
        var state: ServedState
        var generation: Int
        var reply: EncodedReply
    }

    private var entries: [Key: Entry] = [:]

    /// The `continues: true` reply for `view` under configuration `generation`, encoded on the first request
    /// for that revision and reused after it.
    func reply(for view: RosterView, generation: Int) throws(VarlinkError) -> EncodedReply {
        let key = Key(host: view.host, storefront: view.storefront)
        if let entry = entries[key], entry.revision == view.revision, entry.state == view.state,
            entry.generation == generation
        {
            return entry.reply
        }
        let reply = EncodedReply(parameters: try ReplyEncoding.watch(view), continues: true)
        entries[key] = Entry(revision: view.revision, state: view.state, generation: generation, reply: reply)
        return reply
    }
}
