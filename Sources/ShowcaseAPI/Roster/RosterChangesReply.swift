import Varlink

/// The reply of `io.showcase.Roster.Changes`.
public struct RosterChangesReply: APIValue {
    /// One language's roster of a storefront with languages, and the newest serial of its history.
    public struct LanguageLatest: APIValue, Equatable {
        /// The roster's language (`fr`).
        public var language: String
        /// Its newest serial (0 when nothing was recorded).
        public var latest: Int

        /// An entry with every field given.
        public init(language: String, latest: Int) {
            self.language = language
            self.latest = latest
        }

        /// Reads one entry.
        public init(from object: APIObjectReader) throws(APIDecodingError) {
            language = try object.string("language")
            latest = try object.int("latest")
        }

        /// The entry's object.
        public func encoded() -> JSONValue {
            var object = APIObjectBuilder(capacity: 2)
            object.set("language", language)
            object.set("latest", latest)
            return object.object
        }
    }

    /// The storefront code asked about, lowercased alpha-2.
    public var storefront: String
    /// The host whose roster it is.
    public var host: String
    /// The newest serial recorded for the roster (0 when none): a client that saw it has seen everything.
    public var latest: Int
    /// The changes, newest first.
    public var changes: [RosterChange]
    /// True when entries newer than the newest in ``changes`` were left out — past the call's `limit`, or past
    /// what one reply may carry (the socket's reply limit): ask again with `since` set to that newest serial.
    /// Absent (false) from daemons before it.
    public var more: Bool
    /// The language of the roster answered (`fr`); nil for a storefront fetched without one.
    public var language: String?
    /// For a storefront with languages, each language's roster and its newest serial, in the configured order;
    /// empty otherwise (and from daemons before it).
    public var languages: [LanguageLatest]

    /// A reply with every field given.
    public init(
        storefront: String, host: String, latest: Int, changes: [RosterChange], more: Bool = false,
        language: String? = nil, languages: [LanguageLatest] = []
    ) {
        self.storefront = storefront
        self.host = host
        self.latest = latest
        self.changes = changes
        self.more = more
        self.language = language
        self.languages = languages
    }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        storefront = try object.string("storefront")
        host = try object.string("host")
        latest = try object.int("latest")
        changes = try object.array("changes", of: RosterChange.self)
        more = try object.optionalBool("more") ?? false
        language = try object.optionalString("language")
        languages = try object.optionalArray("languages", of: LanguageLatest.self) ?? []
    }

    /// The reply's parameters.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 7)
        object.set("storefront", storefront)
        object.set("host", host)
        object.set("latest", latest)
        object.set("changes", changes)
        object.set("more", more)
        object.set("language", language)
        if !languages.isEmpty { object.set("languages", languages) }
        return object.object
    }
}
