import Varlink

/// Walks the `org.varlink.certification` sequence as a client with our `VarlinkClient`, against
/// a reference server (Python's or Go's), feeding each reply into the next call. This certifies
/// the client half of the module the way the reference clients certify our server.
enum CertificationClient {
    static let interface = "org.varlink.certification."

    /// Runs the sequence; returns a line per step, or throws the first failure.
    static func run(path: String, log: (String) -> Void) throws(VarlinkError) {
        let client = try VarlinkClient(path: path, timeout: .seconds(10))
        func call(_ method: String, _ parameters: [String: JSONValue]) throws(VarlinkError) -> JSONValue {
            let reply = try client.callSync(interface + method, .object(parameters))
            log("\(method): \(reply)")
            return reply
        }
        func field(_ reply: JSONValue, _ name: String) throws(VarlinkError) -> JSONValue {
            guard let value = reply[name] else {
                throw VarlinkError(
                    code: .protocolViolation,
                    detail: "The reply \(reply) lacks '\(name)'; the server is not conformant.")
            }
            return value
        }
        let start = try call("Start", [:])
        let clientID = try field(start, "client_id")
        let test01 = try call("Test01", ["client_id": clientID])
        let test02 = try call("Test02", ["client_id": clientID, "bool": try field(test01, "bool")])
        let test03 = try call("Test03", ["client_id": clientID, "int": try field(test02, "int")])
        let test04 = try call("Test04", ["client_id": clientID, "float": try field(test03, "float")])
        let test05 = try call("Test05", ["client_id": clientID, "string": try field(test04, "string")])
        var test06Parameters: [String: JSONValue] = ["client_id": clientID]
        for name in ["bool", "int", "float", "string"] { test06Parameters[name] = try field(test05, name) }
        let test06 = try call("Test06", test06Parameters)
        let test07 = try call("Test07", ["client_id": clientID, "struct": try field(test06, "struct")])
        let test08 = try call("Test08", ["client_id": clientID, "map": try field(test07, "map")])
        let test09 = try call("Test09", ["client_id": clientID, "set": try field(test08, "set")])
        var replies: [JSONValue] = []
        var failure: VarlinkError?
        try client.callMoreSync(
            interface + "Test10", ["client_id": clientID, "mytype": try field(test09, "mytype")]
        ) { reply, continues in
            log("Test10: \(reply) continues=\(continues)")
            guard let text = reply["string"] else {
                failure = VarlinkError(code: .protocolViolation, detail: "A Test10 reply lacks 'string'.")
                return false
            }
            replies.append(text)
            return true
        }
        if let failure { throw failure }
        try client.sendOneway(interface + "Test11", ["client_id": clientID, "last_more_replies": .array(replies)])
        log("Test11: sent oneway")
        let end = try call("End", ["client_id": clientID])
        guard end["all_ok"] == .bool(true) else {
            throw VarlinkError(code: .protocolViolation, detail: "End replied \(end) instead of all_ok: true.")
        }
    }
}
