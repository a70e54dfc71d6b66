import Foundation
import ShowcaseAPI
import Varlink

/// A stand-in for showcased that speaks the ShowcaseAPI interfaces over a real Unix socket and answers
/// each method with a canned reply or error, recording the calls it received.
///
/// It lets the CLI's formats and exit statuses be tested for every case of the table, including
/// the ones a real daemon only reaches through upstream faults (MalformedResponse, Unavailable…).
final class FakeDaemon: @unchecked Sendable {
    /// What the fake answers to one method.
    enum Answer: Sendable {
        /// One final reply with these parameters.
        case reply(JSONValue)
        /// An error reply.
        case error(String, JSONValue)
        /// These replies with `continues: true`, then nothing more (the connection stays open, as
        /// a Watch does until the client leaves).
        case stream([JSONValue])
    }

    /// The daemon's own interface definitions, so the fake can never drift from the real contract.
    static let rosterIDL = ShowcaseInterfaces.roster
    static let adminIDL = ShowcaseInterfaces.admin

    let directory: URL
    let socketPath: String
    private let server: VarlinkServer
    private let log: CallLog

    /// Starts serving `answers` (keyed by fully qualified method name) on a fresh socket; a method
    /// without an answer gets `MethodNotImplemented`.
    init(_ answers: [String: Answer], version: String = "9.8.7") throws {
        let log = CallLog()
        self.log = log
        directory = try Ctl.temporaryDirectory()
        socketPath = directory.appendingPathComponent("showcased.sock").path
        var service = VarlinkService(
            vendor: "showcase tests", product: "showcased (fake)", version: version, url: "https://example.invalid")
        var roster = try VarlinkInterface(idl: Self.rosterIDL)
        var admin = try VarlinkInterface(idl: Self.adminIDL)
        // Every method the IDL declares, so a method added to the contract can be answered without editing this.
        for (interfaceName, methods) in [(roster.name, roster.idl.methods), (admin.name, admin.idl.methods)] {
            for method in methods {
                let qualified = "\(interfaceName).\(method)"
                guard let answer = answers[qualified] else { continue }
                let handler: VarlinkInterface.Handler = { call, responder throws(VarlinkError) in
                    log.append(call)
                    switch answer {
                    case .reply(let parameters):
                        responder.reply(parameters)
                    case .error(let name, let parameters):
                        responder.fail(name: name, parameters: parameters)
                    case .stream(let replies):
                        for reply in replies { responder.reply(reply, continues: true) }
                    }
                }
                if interfaceName == "io.showcase.Roster" {
                    try roster.handle(method, requiresMore: method == "Watch", handler)
                } else {
                    try admin.handle(method, handler)
                }
            }
        }
        try service.add(roster)
        try service.add(admin)
        server = try VarlinkServer(service: service)
        try server.bind(path: socketPath, mode: 0o666)
        try server.start()
    }

    /// The calls received so far, in order.
    var calls: [VarlinkCall] { log.calls }

    /// Stops the server and removes its directory.
    func stop() {
        server.shutdown(gracePeriod: .milliseconds(200))
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `showcasectl --socket SOCKET ARGUMENTS` against this fake.
    func run(_ arguments: [String]) throws -> CtlResult {
        try Ctl.run(["--socket", socketPath] + arguments)
    }
}
