import Foundation
import Testing

@testable import Varlink

@Suite("Service introspection and standard errors")
struct StandardErrorTests {
    func expectError(
        _ client: VarlinkClient, _ method: String, _ parameters: JSONValue = [:], name: String,
        errorParameters: JSONValue = [:], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = #expect(throws: VarlinkError.self, sourceLocation: sourceLocation) {
            try client.callSync(method, parameters)
        }
        #expect(error?.code == .reply, sourceLocation: sourceLocation)
        #expect(error?.name == name, sourceLocation: sourceLocation)
        #expect(error?.parameters == errorParameters, sourceLocation: sourceLocation)
    }

    @Test("describes the service and its interfaces through GetInfo")
    func getInfo() throws {
        let server = try TestServer()
        defer { server.stop() }
        let info = try server.client().callSync("org.varlink.service.GetInfo")
        #expect(
            info == [
                "vendor": "Example Vendor", "product": "Tests", "version": "1.2.3", "url": "https://example.org",
                "interfaces": ["org.varlink.service", "org.example.test"],
            ])
    }

    @Test("returns each interface's IDL text, which parses again")
    func getInterfaceDescription() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        for name in ["org.varlink.service", "org.example.test"] {
            let reply = try client.callSync("org.varlink.service.GetInterfaceDescription", ["interface": .string(name)])
            let text = try #require(reply["description"]?.stringValue)
            #expect(try VarlinkIDL(parsing: text).name == name)
        }
    }

    @Test("answers every standard error for its case and keeps the connection usable")
    func everyStandardError() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        expectError(
            client, "org.nowhere.Thing.Do", name: "org.varlink.service.InterfaceNotFound",
            errorParameters: ["interface": "org.nowhere.Thing"])
        expectError(
            client, "org.varlink.service.GetInterfaceDescription", ["interface": "org.nowhere"],
            name: "org.varlink.service.InterfaceNotFound", errorParameters: ["interface": "org.nowhere"])
        expectError(
            client, "org.example.test.Missing", name: "org.varlink.service.MethodNotFound",
            errorParameters: ["method": "org.example.test.Missing"])
        expectError(
            client, "NoDots", name: "org.varlink.service.MethodNotFound", errorParameters: ["method": "NoDots"])
        expectError(
            client, "org.example.test.Unimplemented", name: "org.varlink.service.MethodNotImplemented",
            errorParameters: ["method": "org.example.test.Unimplemented"])
        expectError(
            client, "org.example.test.Slow", ["delayMs": 1], name: "org.varlink.service.InvalidParameter",
            errorParameters: ["parameter": "tag"])
        expectError(
            client, "org.example.test.Slow", ["delayMs": "soon", "tag": "t"],
            name: "org.varlink.service.InvalidParameter", errorParameters: ["parameter": "delayMs"])
        expectError(client, "org.example.test.Denied", name: "org.varlink.service.PermissionDenied")
        expectError(client, "org.example.test.Count", ["count": 2], name: "org.varlink.service.ExpectedMore")
        expectStillServed(client)
    }

    @Test("rejects parameters that are not an object with InvalidParameter")
    func parametersNotObject() throws {
        let server = try TestServer()
        defer { server.stop() }
        let peer = try server.raw()
        peer.send(#"{"method":"org.example.test.Echo","parameters":[1]}"# + "\u{0}")
        #expect(
            peer.receive() == [
                "error": "org.varlink.service.InvalidParameter", "parameters": ["parameter": "parameters"],
            ])
    }

    @Test("describes every error in a sentence, never as a Swift default description")
    func descriptions() {
        for error in [
            VarlinkError.interfaceNotFound("a.b"), .methodNotFound("a.b.C"), .methodNotImplemented("a.b.C"),
            .invalidParameter("x"), .permissionDenied(), .expectedMore(), VarlinkError(name: "a.b.Custom"),
            VarlinkError(code: .timeout, detail: "The service did not answer in time."),
        ] {
            #expect(error.description.hasSuffix("."))
            #expect(!error.description.contains("VarlinkError("))
        }
    }
}
