@preconcurrency import Glibc

/// One file of the site (SPEC §18) as the bench saw it: which inode holds it, when it was written, a digest of its
/// bytes, and what the row asks of it. Pages are many (20 developers × 173 storefronts × 30 apps), so the bytes
/// themselves are not kept.
struct SiteFile: Equatable {
    var inode: UInt64
    /// `st_mtim` in nanoseconds since the epoch.
    var modifiedNanoseconds: Int64
    var size: Int
    /// FNV-1a of the bytes: two snapshots of an unchanged file agree.
    var digest: UInt64
    /// Whether the bytes name the app (its id between non-digits): the pages that show it, and so its tagline.
    var mentionsApp: Bool
    /// Whether the bytes hold the new tagline.
    var carriesTagline: Bool
}

/// Reads `site/` under an export directory: every page (`index.html`), `showcase.css` and the sitemap files, keyed
/// by the path relative to `site/`; the `.gz` copies and the manifest are left out, like ``ExportTree``'s.
enum SiteTree {
    static func snapshot(directory: String, appId: Int, tagline: String) -> [String: SiteFile] {
        var files: [String: SiteFile] = [:]
        let root = directory + "/site"
        ExportTree.walk(root) { child, name, _ in
            guard name.hasSuffix(".html") || name.hasSuffix(".xml") || name.hasSuffix(".css") else { return }
            if let file = read(root + "/" + child, appId: appId, tagline: tagline) { files[child] = file }
        }
        return files
    }

    /// One file, or nil when it cannot be read (gone between the listing and the read).
    static func read(_ path: String, appId: Int, tagline: String) -> SiteFile? {
        guard let file = ExportTree.read(path) else { return nil }
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return describe(
            file.bytes, inode: UInt64(status.st_ino), modifiedNanoseconds: file.modifiedNanoseconds, appId: appId,
            tagline: tagline)
    }

    /// The row's view of `bytes`.
    static func describe(_ bytes: [UInt8], inode: UInt64, modifiedNanoseconds: Int64, appId: Int, tagline: String)
        -> SiteFile
    {
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return SiteFile(
            inode: inode, modifiedNanoseconds: modifiedNanoseconds, size: bytes.count, digest: digest,
            mentionsApp: mentions(appId, in: bytes), carriesTagline: contains(Array(tagline.utf8), in: bytes))
    }

    /// Whether the decimal `appId` occurs in `bytes` with no digit right before or after it.
    static func mentions(_ appId: Int, in bytes: [UInt8]) -> Bool {
        let needle = Array(String(appId).utf8)
        var start = 0
        while let found = firstIndex(of: needle, in: bytes, from: start) {
            let before = found > 0 ? bytes[found - 1] : 0
            let after = found + needle.count < bytes.count ? bytes[found + needle.count] : 0
            if !isDigit(before) && !isDigit(after) { return true }
            start = found + 1
        }
        return false
    }

    static func contains(_ needle: [UInt8], in bytes: [UInt8]) -> Bool {
        firstIndex(of: needle, in: bytes, from: 0) != nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = start
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

/// The site row's verdict on two snapshots of `site/` around a reload that changes one app's tagline: every page
/// that showed the app must now carry the tagline (every storefront's developer page, the app's developer's app
/// pages), `sitemap.xml` must be rewritten, and every other page (the 19 other developers' app pages) and the
/// stylesheet must keep inode, mtime and bytes.
struct SiteComparison: Equatable {
    var mustChange: Set<String> = []
    var changed: Set<String> = []
    var mustKeep: Set<String> = []
    /// Of ``mustKeep``, the ones replaced (inode, mtime or bytes moved) or gone.
    var rewritten: Set<String> = []
    /// Whether `sitemap.xml` was rewritten.
    var sitemapChanged = false

    var isExact: Bool { !mustChange.isEmpty && changed == mustChange && rewritten.isEmpty && sitemapChanged }

    init(before: [String: SiteFile], after: [String: SiteFile]) {
        for (path, file) in before {
            if Self.isSitemap(path) {
                if path == "sitemap.xml" { sitemapChanged = after[path].map { $0 != file } ?? false }
            } else if file.mentionsApp {
                mustChange.insert(path)
                if after[path]?.carriesTagline == true { changed.insert(path) }
            } else {
                mustKeep.insert(path)
                if after[path] != file { rewritten.insert(path) }
            }
        }
    }

    /// `sitemap.xml` and, past 50,000 URLs, its parts: rewritten when a page's `lastmod` moves, whichever page.
    static func isSitemap(_ path: String) -> Bool { path.hasPrefix("sitemap") && path.hasSuffix(".xml") }
}
