import Foundation
import ShowcaseCore
import ShowcaseExport
import Testing

/// Hand-built apps and rosters in the shape of Fixtures/lookup (Quiet Harbor Labs).
enum Samples {
    static let us = try! Storefront(parsing: "us")
    static let de = try! Storefront(parsing: "de")
    static let jp = try! Storefront(parsing: "jp")
    static let host = "com.quietharbor.TideLog"
    static let revisedAt = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T11:06:40Z
    static let fetchedAt = Date(timeIntervalSince1970: 1_795_003_600)

    static func app(
        _ id: Int, _ name: String, platform: Platform = .ios, floor: String = "16.0", price: Double? = 0,
        formattedPrice: String? = "Free", currency: String? = "USD"
    ) -> App {
        App(
            id: id, artistId: 1_641_000_001, name: name, bundleId: "com.quietharbor.\(name)", genre: "Weather",
            formattedPrice: formattedPrice, platform: platform, minimumOsVersion: floor,
            iconUrl: "https://is1-ssl.mzstatic.com/\(id)/512x512bb.jpg",
            storeUrl: "https://apps.apple.com/us/app/id\(id)?uo=4", price: price, currency: currency)
    }

    static func exported(_ app: App, tagline: Tagline? = nil, locale: String = "en-US") -> ExportedApp {
        ExportedApp(
            ResolvedApp(app: app, storeUrl: app.storeUrl, tagline: tagline?.text(for: locale)), tagline: tagline)
    }

    static let lanternlight = app(1_641_000_103, "Lanternlight", floor: "9.0")
    static let windrose = app(1_641_000_105, "Windrose", floor: "17.0", price: 2.99, formattedPrice: "$2.99")
    static let chartTable = app(1_641_000_202, "ChartTable", platform: .macos, floor: "11.0")

    /// A current roster of `host` in `storefront`: two iOS apps and one Mac app.
    static func roster(
        host: String = host, storefront: Storefront = us, revision: Int = 1,
        tagline: String = "A night light that knows the tide", language: String? = nil,
        isDefaultLanguage: Bool = true, state: ServedState = .fresh
    ) -> ExportRoster {
        ExportRoster(
            host: host, storefront: storefront, language: language, isDefaultLanguage: isDefaultLanguage,
            state: state, fetchedAt: fetchedAt,
            content: .current(
                revision: revision, revisedAt: revisedAt,
                apps: [
                    .ios: [
                        exported(lanternlight, tagline: .plain(tagline)),
                        exported(windrose),
                    ],
                    .macos: [exported(chartTable)],
                ]))
    }
}

/// A fresh directory under the system temporary directory, removed (immutable flags cleared first) afterwards.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "showcase-export-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ relative: String) -> String { path + "/" + relative }

    func write(_ relative: String, _ contents: String) throws {
        let url = URL(fileURLWithPath: file(relative))
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    func read(_ relative: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: file(relative))) }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: file(relative)) }

    /// Every regular file below the directory, relative to it, sorted.
    func files() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: path)
        var found: [String] = []
        while let next = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: file(next), isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(next)
            }
        }
        return found.sorted()
    }

    /// Sets a file's mtime to a moment long past, so "unchanged" can be told without waiting for the clock.
    func age(_ relative: String) throws {
        try FileManager.default.setAttributes([.modificationDate: Self.longAgo], ofItemAtPath: file(relative))
    }

    func modified(_ relative: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: file(relative))[.modificationDate] as? Date
    }

    static let longAgo = Date(timeIntervalSince1970: 1_000_000_000)

    deinit {
        _ = try? Tool.run("/usr/bin/chattr", ["-R", "-i", path])
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Runs a program and returns its exit status and output.
enum Tool {
    struct Output {
        var status: Int32
        var stdout: Data
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: data)
    }
}

/// A document's or index's text parsed back, for checks that must not depend on the writer's own code.
func parsed(_ data: Data, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: data)
    return try #require(object as? [String: Any], sourceLocation: sourceLocation)
}

/// One export pass on a thread of its own, so a test can give up on it instead of hanging. The semaphore orders the
/// write of `report` before the test's read.
final class PassOnThread: @unchecked Sendable {
    let finished = DispatchSemaphore(value: 0)
    private(set) var report: ExportReport?

    init(_ writer: ExportWriter, _ rosters: [ExportRoster], _ memory: ExportMemory) {
        Thread { [self] in
            var memory = memory
            report = writer.export(rosters, remembering: &memory)
            finished.signal()
        }.start()
    }
}
