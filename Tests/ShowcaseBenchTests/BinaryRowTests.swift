import Foundation
import Testing

@testable import showcase_bench

@Suite("The binaries row of make bench")
struct BinaryRowTests {
    @Test("a binary over 20 MB stripped fails the row; sizes in MB and startup in ms are shown")
    func verdict() {
        func row(_ showcased: Int) -> BenchReport.Row? {
            BenchReport.binaryRows([
                [
                    "label": "binaries", "stripped": ["showcased": showcased, "showcasectl": 15_626_328],
                    "startupRuns": 30, "startupMs": ["showcased --version": 4.31, "showcasectl --help": 3.5],
                ]
            ]).first
        }
        let small = row(17_170_520)
        #expect(small?.verdict == "PASS")
        #expect(small?.ours == "showcasectl 15.6 MB, showcased 17.2 MB")
        #expect(small?.note == "startup (median of 30): showcasectl --help 3.5 ms, showcased --version 4.3 ms")
        #expect(row(20_000_000)?.verdict == "PASS")
        #expect(row(20_000_001)?.verdict == "FAIL")
    }

    @Test("without a measurement the row says n/a and why")
    func missing() {
        let row = BenchReport.binaryRows([["label": "skip", "row": "binaries", "reason": "no release build"]]).first
        #expect(row?.verdict == "n/a")
        #expect(row?.note == "no release build")
    }
}
