import Foundation
@preconcurrency import Glibc

/// The static export as an end-to-end test sees it: the configured directory, its files, and `Admin.Export`.
extension TestBed {
    /// Where the bed's export goes (configured by ``enableExport(at:gzip:)``).
    var exportDirectory: URL { directory.appendingPathComponent("export", isDirectory: true) }

    /// Adds an `export:` section to the configuration (written by the next `start()` or `reload()`).
    func enableExport(at path: String? = nil, gzip: Bool = true) {
        extra = "export:\n  directory: \(path ?? exportDirectory.path)\n  gzip: \(gzip)\n"
    }

    /// `Admin.Export`: returns after the pass it ran.
    @discardableResult
    func export() throws -> Reply { try client().call("io.showcase.Admin.Export") }

    /// The file `relative` to `v1/` of the export (`com.quietharbor.Knotbook/de/ios.json`).
    func exported(_ relative: String, under root: URL? = nil) -> URL {
        (root ?? exportDirectory).appendingPathComponent("v1/" + relative)
    }

    /// Every regular file under the export's `v1/`, relative to it, sorted.
    func exportedFiles(under root: URL? = nil) -> [String] {
        let base = (root ?? exportDirectory).appendingPathComponent("v1").path
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: base)
        while let next = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + "/" + next, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                found.append(next)
            }
        }
        return found.sorted()
    }

    /// A document or `index.json`, parsed.
    func exportedJSON(_ relative: String, under root: URL? = nil) throws -> [String: Any] {
        let data = try Data(contentsOf: exported(relative, under: root))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw HarnessError("\(relative) is not a JSON object")
        }
        return object
    }

    /// Sets the mtime of every exported file to a moment long past, so "left alone" can be told without waiting
    /// for the clock to tick.
    func ageExportedFiles() throws {
        for file in exportedFiles() {
            try FileManager.default.setAttributes(
                [.modificationDate: Self.longAgo], ofItemAtPath: exported(file).path)
        }
    }

    /// The exported files whose mtime is no longer ``longAgo``: those written since ``ageExportedFiles()``.
    func rewrittenFiles() throws -> [String] {
        try exportedFiles().filter { file in
            let attributes = try FileManager.default.attributesOfItem(atPath: exported(file).path)
            return attributes[.modificationDate] as? Date != Self.longAgo
        }
    }

    static let longAgo = Date(timeIntervalSince1970: 1_000_000_000)
}
