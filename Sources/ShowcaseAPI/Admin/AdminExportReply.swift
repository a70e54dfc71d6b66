import Varlink

/// The reply of `io.showcase.Admin.Export`: the pass it ran over the static export, counted in files (each
/// `.json.gz` and `index.json` included).
public struct AdminExportReply: APIValue {
    /// `export.directory`; the documents are under its `v1/`.
    public var directory: String
    /// Files written because their bytes changed or they were new.
    public var written: Int
    /// Files already right, left alone (their mtime and ETag stay).
    public var unchanged: Int
    /// Files showcased exported earlier that are no longer wanted, removed.
    public var removed: Int
    /// What could not be written or removed, one sentence each; empty when the tree is current.
    public var errors: [String]

    /// A reply with every field given.
    public init(directory: String, written: Int, unchanged: Int, removed: Int, errors: [String] = []) {
        self.directory = directory
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
        self.errors = errors
    }

    /// Reads a reply's parameters.
    public init(from object: APIObjectReader) throws(APIDecodingError) {
        directory = try object.string("directory")
        written = try object.int("written")
        unchanged = try object.int("unchanged")
        removed = try object.int("removed")
        errors = try object.strings("errors")
    }

    /// The reply's parameters.
    public func encoded() -> JSONValue {
        var object = APIObjectBuilder(capacity: 5)
        object.set("directory", directory)
        object.set("written", written)
        object.set("unchanged", unchanged)
        object.set("removed", removed)
        object.set("errors", errors)
        return object.object
    }
}
