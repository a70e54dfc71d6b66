import Foundation
import ShowcaseAPI
import ShowcaseCore
import ShowcaseDaemon
import Testing

@Suite("Interfaces", .serialized)
struct InterfaceTests {
    static let pythonVarlink = DaemonProcess.packageRoot.appendingPathComponent(".build/varlink-venv/bin/python3")

    @Test("GetInfo lists both interfaces and GetInterfaceDescription returns their IDL unchanged")
    func introspection() throws {
        let bed = try TestBed()
        try bed.start()
        let info = try bed.client().call("org.varlink.service.GetInfo")
        #expect(info["interfaces"] as? [String] == ["org.varlink.service", "io.showcase.Roster", "io.showcase.Admin"])
        #expect(info.string("product") == "showcased")
        #expect(info.string("version") == ShowcaseVersion.string)
        for (name, idl) in [
            ("io.showcase.Roster", ShowcaseInterfaces.roster), ("io.showcase.Admin", ShowcaseInterfaces.admin),
        ] {
            let reply = try bed.client().call("org.varlink.service.GetInterfaceDescription", ["interface": name])
            #expect(reply.string("description") == idl)
        }
    }

    /// `make test` sets `SHOWCASE_REFERENCE_PARSER=required` after `make conformance` made the venv: there the
    /// check below runs or fails, never skips. A bare `swift test` without the venv skips it.
    static let referenceParserRequired = ProcessInfo.processInfo.environment["SHOWCASE_REFERENCE_PARSER"] == "required"

    @Test(
        "the reference Python Varlink parser accepts both interfaces",
        .enabled(if: referenceParserRequired || FileManager.default.isExecutableFile(atPath: pythonVarlink.path)))
    func pythonParserAccepts() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.pythonVarlink.path),
            "no reference parser at \(Self.pythonVarlink.path): make conformance creates it")
        for idl in [ShowcaseInterfaces.roster, ShowcaseInterfaces.admin] {
            let process = Process()
            process.executableURL = Self.pythonVarlink
            process.arguments = ["-c", "import sys, varlink; print(varlink.Interface(sys.stdin.read()).name)"]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            try process.run()
            input.fileHandleForWriting.write(Data(idl.utf8))
            try input.fileHandleForWriting.close()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(text)")
            #expect(text.hasPrefix("io.showcase."), "\(text)")
        }
    }
}
