import FoundationEssentials
import ShowcaseCore
import Varlink

/// Encoded `Roster.Get` replies, kept per query while the answer they were encoded from still holds.
///
/// A hot query is one dictionary lookup, the one "still current" check every copy of an answer makes
/// (``AnswerVersion``: two atomic loads, and the clock for a `fresh` reply) and a write of bytes encoded earlier:
/// no JSON encoding, no filtering, no lock. The cache is confined to the Varlink event-loop thread (handlers run
/// there), which is why it needs no lock; replies built elsewhere (after a `waitMs` wait) are simply not cached.
///
/// Memory stays proportional to what is actually hot: a reply is kept only the second time the same query misses
/// (a query asked once — say, one pass over every storefront — costs nothing to keep), and `byteBudget` bounds the
/// rest, sized so that the daemon stays within SPEC §11's memory row with every storefront's reply kept. Over
/// budget, random entries make room for the new one, so a hot set larger than the budget keeps most of its hits
/// instead of losing them all at once.
///
/// Queries that differ only in what does not change the answer (a locale without taglines, `platform: ios` on an
/// iOS-only roster, an OS version every app supports) get the same reply byte for byte: such entries share one
/// copy of the bytes, counted once against the budget, and the kernel copies from fewer distinct replies.
final class ReplyCache: @unchecked Sendable {
    /// The query as parsed where the call was read (``GetParameters``, once per distinct message): storefront,
    /// platform, device and OS version as their types, host and locale as the caller spelled them.
    ///
    /// The members' hash is computed once, when the key is made, and a lookup hashes only that number: a key
    /// kept with its call's message (``GetParameters``) is looked up again and again, and must not hash six
    /// strings each time.
    struct Key: Hashable {
        let storefront: Storefront
        let host: String?
        let platform: Platform?
        let device: DeviceFamily?
        let osVersion: OSVersion?
        let locale: String?
        /// The hash of the members above; equal keys have equal members, so equal hashes.
        private let memberHash: Int

        init(
            storefront: Storefront, host: String? = nil, platform: Platform? = nil, device: DeviceFamily? = nil,
            osVersion: OSVersion? = nil, locale: String? = nil
        ) {
            self.storefront = storefront
            self.host = host
            self.platform = platform
            self.device = device
            self.osVersion = osVersion
            self.locale = locale
            var hasher = Hasher()
            hasher.combine(storefront)
            hasher.combine(host)
            hasher.combine(platform)
            hasher.combine(device)
            hasher.combine(osVersion)
            hasher.combine(locale)
            memberHash = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(memberHash)
        }
    }

    /// Identifies reply bytes for sharing: their length and hash (equal bytes are still compared in full).
    struct Content: Hashable {
        let count: Int
        let hash: Int

        init(_ bytes: [UInt8]) {
            count = bytes.count
            var hasher = Hasher()
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            hash = hasher.finalize()
        }
    }

    /// Reply bytes kept once for every entry whose reply they are.
    private struct Shared {
        let reply: EncodedReply
        var users: Int
    }

    /// One kept reply and what it was current for.
    ///
    /// A class, so that a call's ``GetParameters`` can keep the entry its key resolved to and a repeated lookup
    /// skips the dictionary, never comparing the key's six strings again. An
    /// entry that leaves the cache, replaced or evicted, drops its reply: a kept entry is used only while it is
    /// still the one the cache holds for that key, and never keeps an evicted reply's bytes alive.
    final class Entry {
        /// The reply, or nil once the entry has left the cache.
        fileprivate(set) var reply: EncodedReply?
        fileprivate let owner: ObjectIdentifier
        /// What the reply was computed from.
        fileprivate let version: AnswerVersion
        /// Where the reply's bytes are counted in `shared`; nil for bytes kept alone (a hash shared with other bytes).
        fileprivate let content: Content?

        fileprivate init(
            reply: EncodedReply, content: Content?, owner: ObjectIdentifier, version: AnswerVersion
        ) {
            self.reply = reply
            self.content = content
            self.owner = owner
            self.version = version
        }
    }

    private let clock: any ShowcaseClock
    /// Exclusivity is not checked at run time: one thread, and no access calls out while it lasts.
    @exclusivity(unchecked) private var entries: [Key: Entry] = [:]
    private var seenOnce: Set<Key> = []
    /// The distinct reply bytes the entries hold, each with the number of entries holding it.
    private var shared: [Content: Shared] = [:]
    /// Bytes held: each distinct reply once.
    private(set) var bytes = 0
    private let capacity: Int
    private let byteBudget: Int

    init(clock: any ShowcaseClock, capacity: Int = 4096, byteBudget: Int = 8 << 20) {
        self.clock = clock
        self.capacity = capacity
        self.byteBudget = byteBudget
    }

    /// The reply kept for `key`, if it still holds at the state's `version`.
    func lookup(_ key: Key, version: Int) -> EncodedReply? {
        guard let entry = entries[key] else { return nil }
        return current(entry, version: version)
    }

    /// The reply kept for `parameters.key`, if current; `parameters` keeps the entry the key resolved to, so the
    /// next lookup with the same parameters (the same message, remembered) goes to it without hashing or comparing
    /// the key, for as long as the entry is still this cache's entry for it.
    func lookup(_ parameters: GetParameters, version: Int) -> EncodedReply? {
        let entry: Entry
        if let kept = parameters.cacheEntry, kept.reply != nil, kept.owner == ObjectIdentifier(self) {
            entry = kept
        } else {
            guard let found = entries[parameters.key] else { return nil }
            parameters.cacheEntry = found
            entry = found
        }
        return current(entry, version: version)
    }

    private func current(_ entry: Entry, version: Int) -> EncodedReply? {
        guard let reply = entry.reply, entry.version.holds(atVersion: version, now: clock.now) else { return nil }
        return reply
    }

    /// Keeps `reply`, computed from `version` (read with the answer, so a change racing with the computation
    /// makes the entry stale rather than wrongly current).
    func store(_ reply: EncodedReply, for key: Key, version: AnswerVersion) {
        guard entries[key] != nil || seenOnce.remove(key) != nil else {
            if seenOnce.count >= capacity { seenOnce.removeAll() }
            seenOnce.insert(key)
            return
        }
        if let old = entries.removeValue(forKey: key) { retire(old) }
        guard reply.bytes.count <= byteBudget else { return }
        let content = Content(reply.bytes)
        // Bytes another entry already holds cost nothing more, for as long as one still holds them: the last entry
        // holding them may be among the victims (an eviction only ever removes a shared copy, never adds one).
        let alreadyHeld = sharedReply(content, reply) != nil
        func added() -> Int { alreadyHeld && shared[content] != nil ? 0 : reply.bytes.count }
        while entries.count >= capacity || bytes + added() > byteBudget, let victim = entries.randomElement() {
            entries[victim.key] = nil
            retire(victim.value)
        }
        let kept: EncodedReply
        let counted: Content?
        if alreadyHeld, let existing = shared[content]?.reply {
            kept = existing
            counted = content
            shared[content]?.users += 1
        } else {
            kept = reply
            bytes += reply.bytes.count
            // Other bytes with the same length and hash (a collision) keep theirs; these are then kept alone.
            counted = shared[content] == nil ? content : nil
            if counted != nil { shared[content] = Shared(reply: reply, users: 1) }
        }
        entries[key] = Entry(
            reply: kept, content: counted, owner: ObjectIdentifier(self), version: version)
    }

    /// The reply another entry holds with exactly the bytes of `reply`, if any.
    private func sharedReply(_ content: Content, _ reply: EncodedReply) -> EncodedReply? {
        guard let existing = shared[content], existing.reply.bytes == reply.bytes else { return nil }
        return existing.reply
    }

    /// Accounts for `entry` leaving the cache and drops its reply, so no one who kept the entry uses it again.
    private func retire(_ entry: Entry) {
        guard let reply = entry.reply else { return }
        entry.reply = nil
        guard let content = entry.content, let users = shared[content]?.users else {
            bytes -= reply.bytes.count
            return
        }
        if users > 1 {
            shared[content]?.users = users - 1
        } else {
            shared[content] = nil
            bytes -= reply.bytes.count
        }
    }
}
