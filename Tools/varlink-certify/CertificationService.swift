import Foundation
import Varlink

/// The official `org.varlink.certification` interface: a client walks Start, Test01 … Test11,
/// End, feeding each reply into the next call, and the server checks every step. Running the
/// reference Python and Go certification clients against it proves our server interoperates.
final class CertificationService: @unchecked Sendable {
    static let idl = """
        # Interface to test varlink implementations against.
        # First you write a varlink client calling:
        # Start, Test01, Test02, …, Test09, End
        # The return value of the previous call should be the argument of the next call.
        # Then you test this client against well known servers like python or rust from
        # https://github.com/varlink/
        #
        # Next you write a varlink server providing the same service as the well known ones.
        # Now run your client against it and run well known clients like python or rust
        # from https://github.com/varlink/ against your server. If all works out, then
        # your new language bindings should be varlink certified.
        interface org.varlink.certification

        type Interface (
          foo: ?[]?[string](foo, bar, baz),
          anon: (foo: bool, bar: bool)
        )

        type MyType (
          object: object,
          enum: (one, two, three),
          struct: (first: int, second: string),
          array: []string,
          dictionary: [string]string,
          stringset: [string](),
          nullable: ?string,
          nullable_array_struct: ?[](first: int, second: string),
          interface: Interface
        )

        method Start() -> (client_id: string)

        method Test01(client_id: string) -> (bool: bool)

        method Test02(client_id: string, bool: bool) -> (int: int)

        method Test03(client_id: string, int: int) -> (float: float)

        method Test04(client_id: string, float: float) -> (string: string)

        method Test05(client_id: string, string: string) -> (
          bool: bool,
          int: int,
          float: float,
          string: string
        )

        method Test06(
          client_id: string,
          bool: bool,
          int: int,
          float: float,
          string: string
        ) -> (
          struct: (
            bool: bool,
            int: int,
            float: float,
            string: string
          )
        )

        method Test07(
          client_id: string,
          struct: (
            bool: bool,
            int: int,
            float: float,
            string: string
          )
        ) -> (map: [string]string)

        method Test08(client_id: string, map: [string]string) -> (set: [string]())

        method Test09(client_id: string, set: [string]()) -> (mytype: MyType)

        # returns more than one reply with "continues"
        method Test10(client_id: string, mytype: MyType) -> (string: string)

        method Test11(
          client_id: string,
          last_more_replies: []string
        ) -> ()

        method End(client_id: string) -> (all_ok: bool)

        error ClientIdError ()

        error CertificationError (wants: object, got: object)

        """

    static let order = [
        "Start", "Test01", "Test02", "Test03", "Test04", "Test05", "Test06", "Test07", "Test08", "Test09",
        "Test10", "Test11", "End",
    ]

    static let fiveValues: JSONValue = [
        "bool": false, "int": 2, "float": .double(Double.pi), "string": "a lot of string",
    ]
    static let map: JSONValue = ["foo": "Foo", "bar": "Bar"]
    static let set: JSONValue = ["one": [:], "two": [:], "three": [:]]
    static let myType: JSONValue = [
        "object": ["method": "org.varlink.certification.Test09", "parameters": ["map": map]],
        "enum": "two",
        "struct": ["first": 1, "second": "2"],
        "array": ["one", "two", "three"],
        "dictionary": map,
        "stringset": set,
        "nullable": nil,
        "nullable_array_struct": nil,
        "interface": [
            "foo": [nil, ["foo": "foo", "bar": "bar"], nil, ["one": "foo", "two": "bar"]],
            "anon": ["foo": true, "bar": false],
        ],
    ]
    static let moreReplies = (1...10).map { "Reply number \($0)" }

    private let lock = NSLock()
    /// client_id → the method that client must call next.
    private var nextMethod: [String: String] = [:]

    func makeInterface() throws(VarlinkError) -> VarlinkInterface {
        var interface = try VarlinkInterface(idl: Self.idl)
        for method in Self.order {
            try interface.handle(method, requiresMore: method == "Test10") {
                [self] call, responder throws(VarlinkError) in
                try self.handle(call, responder)
            }
        }
        return interface
    }

    private func certificationError(wants: JSONValue, got: JSONValue) -> VarlinkError {
        VarlinkError(name: "org.varlink.certification.CertificationError", parameters: ["wants": wants, "got": got])
    }

    /// Checks the client's position in the sequence and advances it.
    private func advance(_ clientID: String, from method: String) throws(VarlinkError) {
        lock.lock()
        defer { lock.unlock() }
        guard let expected = nextMethod[clientID] else {
            throw VarlinkError(name: "org.varlink.certification.ClientIdError")
        }
        guard expected == method else {
            nextMethod[clientID] = nil
            throw certificationError(
                wants: ["method": .string("org.varlink.certification." + expected)],
                got: ["method": .string("org.varlink.certification." + method)])
        }
        let position = Self.order.firstIndex(of: method)!
        nextMethod[clientID] = position + 1 < Self.order.count ? Self.order[position + 1] : nil
    }

    private func expect(_ call: VarlinkCall, _ wants: JSONValue) throws(VarlinkError) {
        var got = call.parameters
        got["client_id"] = nil
        guard Self.matches(.object(got), wants) else {
            throw certificationError(wants: wants, got: .object(got))
        }
    }

    /// Structural equality where numbers compare by value (Go sends `1` for the float 1.0) and
    /// a missing member equals `null` (optional fields may be omitted).
    static func matches(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)):
            for key in Set(x.keys).union(y.keys) where !matches(x[key] ?? .null, y[key] ?? .null) { return false }
            return true
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { matches($0, $1) }
        default:
            if let x = a.doubleValue, let y = b.doubleValue { return x == y }
            return a == b
        }
    }

    private func handle(_ call: VarlinkCall, _ responder: VarlinkResponder) throws(VarlinkError) {
        let method = String(call.methodName)
        if method == "Start" {
            var random = SystemRandomNumberGenerator()
            let clientID = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &random)) }
                .joined()
            lock.lock()
            nextMethod[clientID] = "Test01"
            lock.unlock()
            return responder.reply(["client_id": .string(clientID)])
        }
        let clientID = try call.string("client_id")
        try advance(clientID, from: method)
        switch method {
        case "Test01":
            try expect(call, [:])
            responder.reply(["bool": true])
        case "Test02":
            try expect(call, ["bool": true])
            responder.reply(["int": 1])
        case "Test03":
            try expect(call, ["int": 1])
            responder.reply(["float": 1.0])
        case "Test04":
            try expect(call, ["float": 1.0])
            responder.reply(["string": "ping"])
        case "Test05":
            try expect(call, ["string": "ping"])
            responder.reply(Self.fiveValues)
        case "Test06":
            try expect(call, Self.fiveValues)
            responder.reply(["struct": Self.fiveValues])
        case "Test07":
            try expect(call, ["struct": Self.fiveValues])
            responder.reply(["map": Self.map])
        case "Test08":
            try expect(call, ["map": Self.map])
            responder.reply(["set": Self.set])
        case "Test09":
            try expect(call, ["set": Self.set])
            responder.reply(["mytype": Self.myType])
        case "Test10":
            try expect(call, ["mytype": Self.myType])
            for (index, text) in Self.moreReplies.enumerated() {
                responder.reply(["string": .string(text)], continues: index + 1 < Self.moreReplies.count)
            }
        case "Test11":
            guard call.oneway else {
                throw certificationError(wants: ["oneway": true], got: ["oneway": false])
            }
            try expect(call, ["last_more_replies": .array(Self.moreReplies.map { .string($0) })])
        case "End":
            try expect(call, [:])
            lock.lock()
            nextMethod[clientID] = nil
            lock.unlock()
            responder.reply(["all_ok": true])
        default:
            throw .methodNotImplemented(call.method)
        }
    }
}
