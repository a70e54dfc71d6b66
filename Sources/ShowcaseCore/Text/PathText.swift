/// File paths as text, the way `NSString`'s path methods read them (Foundation's, which would link ICU). No file
/// system is consulted and nothing is resolved.
///
/// Unlike Foundation's, `parent(of:)` also takes a one-character relative name: `("c" as NSString)
/// .deletingLastPathComponent` traps on Swift 6.3's Foundation, which made `showcasectl check-config c` (a
/// configuration file named with one character, given relative to the working directory) die of SIGILL.
public enum PathText {
    /// The path without its last component: `/etc/showcase` for `/etc/showcase/showcase.yaml`, `/` for `/etc`,
    /// "" for a bare name (`NSString.deletingLastPathComponent`: runs of `/` read as one, a trailing `/` ignored).
    public static func parent(of path: String) -> String {
        let tidy = normalized(path)
        guard let slash = tidy.lastIndex(of: "/") else { return "" }
        if tidy == "/" { return tidy }
        return slash == tidy.startIndex ? "/" : String(tidy[..<slash])
    }

    /// `component` appended to `path` with a `/` between them unless `path` ends in one; `component` alone when
    /// `path` is empty (`NSString.appendingPathComponent`, which changes neither part).
    public static func appending(_ component: String, to path: String) -> String {
        if path.isEmpty { return component }
        return path.hasSuffix("/") ? path + component : path + "/" + component
    }

    /// `path` with each run of `/` made one and a trailing `/` dropped (but `/` itself kept).
    static func normalized(_ path: String) -> String {
        var result = ""
        result.reserveCapacity(path.utf8.count)
        var previousWasSlash = false
        for character in path {
            if character == "/" && previousWasSlash { continue }
            previousWasSlash = character == "/"
            result.append(character)
        }
        if result.count > 1 && result.hasSuffix("/") { result.removeLast() }
        return result
    }
}
