import Foundation
import ShowcaseAPI
import ShowcaseDaemon
import Testing

/// The IDL under docs/ is what third parties read and what scripts/varlink-conformance.sh feeds to the
/// reference Python parser, so it must be the daemon's compiled-in IDL byte for byte. It is generated: `make
/// interfaces` runs this suite with SHOWCASE_WRITE_INTERFACES=1, which writes the compiled-in IDL to the files first.
@Suite("Interface files")
struct InterfaceFileTests {
    @Test(
        "docs/<interface>.varlink is byte-identical to the IDL the daemon serves",
        arguments: [
            ("io.showcase.Roster", ShowcaseInterfaces.roster), ("io.showcase.Admin", ShowcaseInterfaces.admin),
        ])
    func fileMatchesCompiledIDL(name: String, idl: String) throws {
        let file = DaemonProcess.packageRoot.appendingPathComponent("docs/\(name).varlink")
        if ProcessInfo.processInfo.environment["SHOWCASE_WRITE_INTERFACES"] == "1" {
            try Data(idl.utf8).write(to: file, options: .atomic)
        }
        let contents = try Data(contentsOf: file)
        #expect(
            contents == Data(idl.utf8),
            "docs/\(name).varlink differs from the compiled-in IDL: run `make interfaces` to write it")
        #expect(idl.hasPrefix("interface \(name)\n"))
    }
}
