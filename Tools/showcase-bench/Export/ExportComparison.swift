import Foundation

/// The export row's verdict on two snapshots of the tree (before and after a reload that changes one app's
/// tagline), kept apart from the polling so it can be tested without a daemon.
///
/// A document must change when it listed the app before; every other document must keep its mtime and its
/// bytes. A document that must change counts as changed only when it now carries the new tagline.
struct ExportComparison: Equatable {
    /// Documents that listed the app: each must now carry the new tagline.
    var mustChange: Set<String> = []
    /// Of those, the ones that carry it.
    var changed: Set<String> = []
    /// Documents without the app: each must keep its mtime and bytes.
    var mustKeep: Set<String> = []
    /// Of those, the ones rewritten (mtime or bytes moved) or gone.
    var rewritten: Set<String> = []

    /// Whether the tree is what the reload should leave: every listing document changed, nothing else touched.
    var isExact: Bool { !mustChange.isEmpty && changed == mustChange && rewritten.isEmpty }

    init(
        before: [String: ExportFile], after: [String: ExportFile], appId: Int, tagline: String,
        carryingTaglines: [String] = []
    ) {
        for (path, file) in before {
            if Self.mustChange(path, before: before, appId: appId, carryingTaglines: carryingTaglines) {
                mustChange.insert(path)
                if let now = after[path], Self.carries(tagline, in: now.bytes) { changed.insert(path) }
            } else {
                mustKeep.insert(path)
                if after[path] != file { rewritten.insert(path) }
            }
        }
    }

    /// Whether `path` must carry the new tagline: a document listing the app, or a file rendered beside one whose
    /// suffix (in `carryingTaglines`, like `.html`) shows taglines.
    static func mustChange(_ path: String, before: [String: ExportFile], appId: Int, carryingTaglines: [String])
        -> Bool
    {
        if path.hasSuffix(".json") { return before[path].map { lists(appId: appId, in: $0.bytes) } ?? false }
        // The longest suffix names the kind: `ios.email.html` is an email fragment, not an `.html` one.
        guard let suffix = carryingTaglines.sorted(by: { $0.count > $1.count }).first(where: { path.hasSuffix($0) })
        else { return false }
        let document = String(path.dropLast(suffix.count)) + ".json"
        return before[document].map { lists(appId: appId, in: $0.bytes) } ?? false
    }

    /// Whether a document's `apps` holds the app `appId`.
    static func lists(appId: Int, in bytes: [UInt8]) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let apps = object["apps"] as? [[String: Any]]
        else { return false }
        return apps.contains { ($0["id"] as? NSNumber)?.intValue == appId }
    }

    /// Whether the document's text holds `tagline` (the marker is chosen to appear nowhere else).
    static func carries(_ tagline: String, in bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).contains(tagline)
    }
}
