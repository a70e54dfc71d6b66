import Foundation
import ShowcaseConfig
import ShowcaseCore
import ShowcaseExport

// showcase-export-sample: the static export of Fixtures/ without a daemon (see SampleOptions.usage).

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("showcase-export-sample: \(message)\n".utf8))
    exit(status)
}

let options: SampleOptions
switch SampleOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .success(let parsed): options = parsed
case .failure(let error): fail("\(error.message)\n\(SampleOptions.usage)", status: 64)
}

let rosters: [ExportRoster]
var exportSettings: ExportSettings?
do {
    let configuration = try ConfigLoader.load(path: options.config)
    exportSettings = configuration.export
    let overlay = try options.overlay.map { path throws(ConfigErrors) in try ConfigLoader.loadOverlay(path: path) }
    var storefronts = configuration.storefronts
    if let list = options.storefronts {
        storefronts =
            list == "all" ? Storefront.all : try list.split(separator: ",").map { try Storefront(parsing: String($0)) }
    }
    rosters = try SampleRosters(
        fixtures: URL(fileURLWithPath: options.fixtures, isDirectory: true), configuration: configuration,
        overlay: overlay, storefronts: storefronts
    ).rosters()
} catch {
    fail("\(error)", status: 65)
}

// The configuration's export.html and public_url apply as in the daemon (the fragments of SPEC §14 beside each
// document), so a measurement of the writer can include them.
let html = exportSettings?.html ?? false
let writer = ExportWriter(
    directory: options.directory, gzip: options.gzip, renderers: html ? WebSurfaces.documentRenderers : [],
    hostRenderers: html ? WebSurfaces.hostRenderers : [], publicURL: exportSettings?.publicURL ?? "/showcase/v1/")
var failed = false
for _ in 0..<options.repeats {
    let start = ContinuousClock.now
    let report = writer.export(rosters)
    let elapsed = ContinuousClock.now - start
    let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
    print("\(report.summary) in \(String(format: "%.1f", milliseconds)) ms (\(rosters.count) rosters)")
    for error in report.errors { print("  \(error)") }
    failed = failed || !report.succeeded
}
exit(failed ? 1 : 0)
