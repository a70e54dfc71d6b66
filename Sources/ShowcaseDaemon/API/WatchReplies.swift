import ShowcaseAPI
import ShowcaseCore
import Varlink

/// The latest encoded `Roster.Watch` reply per (host, storefront), shared by every stream: a new revision is
/// encoded once, however many subscribers watch it, and each of them writes the same bytes.
///
/// A reply shows the storefront, the revision, the state and the apps, so an entry is reused only when all of
/// them are the same; the apps are compared too (each stream resolves them anyway to decide whether to send),
/// because a stream's revision is its own and two streams may name different apps with the same number. Confined
/// to the watch queue (every ``WatchStream`` sends from it), so it needs no lock; one entry per watched (host,
/// storefront). Only `continues: true` replies are shared; a stream's final reply is rare and encoded on its own.
final class WatchReplies: @unchecked Sendable {
    private struct Key: Hashable {
        var host: String
        var storefront: Storefront
    }

    private struct Entry {
        var revision: Int
        var state: ServedState
        var apps: [RosterApp]
        var reply: EncodedReply
    }

    private var entries: [Key: Entry] = [:]

    /// The `continues: true` reply showing `apps` at `revision` for `view`'s storefront and state, encoded on the
    /// first request and reused while the next ones ask for the same.
    func reply(for view: RosterView, revision: Int, apps: [RosterApp]) throws(VarlinkError) -> EncodedReply {
        let key = Key(host: view.host, storefront: view.storefront)
        if let entry = entries[key], entry.revision == revision, entry.state == view.state, entry.apps == apps {
            return entry.reply
        }
        let reply = EncodedReply(
            parameters: try ReplyEncoding.watch(view, revision: revision, apps: apps), continues: true)
        entries[key] = Entry(revision: revision, state: view.state, apps: apps, reply: reply)
        return reply
    }
}
