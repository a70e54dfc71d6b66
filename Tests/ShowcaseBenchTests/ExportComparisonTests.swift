import Foundation
import Testing

@testable import showcase_bench

@Suite("Export row: documents that must change and documents that must be kept")
struct ExportComparisonTests {
    private func document(_ ids: [Int], tagline: String = "old") -> [UInt8] {
        let apps = ids.map { #"{"id":\#($0),"name":"App\#($0)","tagline":"\#(tagline)"}"# }
        return Array(#"{"schema":1,"apps":[\#(apps.joined(separator: ","))]}"#.utf8)
    }

    @Test("a document listing the app must carry the new tagline; one without it must keep mtime and bytes")
    func classifiesTheTree() {
        let before: [String: ExportFile] = [
            "h/us/ios.json": ExportFile(modifiedNanoseconds: 10, bytes: document([1, 2])),
            "h/de/ios.json": ExportFile(modifiedNanoseconds: 11, bytes: document([2, 3])),
            "h/us/macos.json": ExportFile(modifiedNanoseconds: 12, bytes: document([])),
            "h/jp/ios.json": ExportFile(modifiedNanoseconds: 13, bytes: document([3])),
        ]
        var after = before
        after["h/us/ios.json"] = ExportFile(modifiedNanoseconds: 20, bytes: document([1, 2], tagline: "marker"))
        after["h/de/ios.json"] = ExportFile(modifiedNanoseconds: 21, bytes: document([2, 3], tagline: "marker"))
        after["h/jp/ios.json"] = ExportFile(modifiedNanoseconds: 23, bytes: document([3]))  // same bytes, new mtime
        let comparison = ExportComparison(before: before, after: after, appId: 2, tagline: "marker")
        #expect(comparison.mustChange == ["h/us/ios.json", "h/de/ios.json"])
        #expect(comparison.changed == comparison.mustChange)
        #expect(comparison.mustKeep == ["h/us/macos.json", "h/jp/ios.json"])
        #expect(comparison.rewritten == ["h/jp/ios.json"])
        #expect(!comparison.isExact)
    }

    @Test("a document still without the tagline, or gone, is not counted as changed or kept")
    func missingAndLateDocuments() {
        let before: [String: ExportFile] = [
            "h/us/ios.json": ExportFile(modifiedNanoseconds: 10, bytes: document([2])),
            "h/fr/ios.json": ExportFile(modifiedNanoseconds: 11, bytes: document([2])),
            "h/fr/macos.json": ExportFile(modifiedNanoseconds: 12, bytes: document([5])),
            "h/it/macos.json": ExportFile(modifiedNanoseconds: 14, bytes: document([5])),
        ]
        var after = before
        after["h/us/ios.json"] = ExportFile(modifiedNanoseconds: 20, bytes: document([2], tagline: "marker"))
        after["h/fr/macos.json"] = nil
        let comparison = ExportComparison(before: before, after: after, appId: 2, tagline: "marker")
        #expect(comparison.changed == ["h/us/ios.json"])
        #expect(comparison.mustChange.count == 2)
        #expect(comparison.rewritten == ["h/fr/macos.json"])

        after["h/fr/ios.json"] = ExportFile(modifiedNanoseconds: 21, bytes: document([2], tagline: "marker"))
        after["h/fr/macos.json"] = before["h/fr/macos.json"]
        #expect(ExportComparison(before: before, after: after, appId: 2, tagline: "marker").isExact)
    }

    @Test("the app is found by its id in the document's apps, not by digits elsewhere in the text")
    func findsTheAppById() {
        #expect(ExportComparison.lists(appId: 7, in: document([6, 7])))
        #expect(!ExportComparison.lists(appId: 7, in: Array(#"{"revision":7,"apps":[{"id":70}]}"#.utf8)))
        #expect(!ExportComparison.lists(appId: 7, in: Array("not json".utf8)))
    }
}
