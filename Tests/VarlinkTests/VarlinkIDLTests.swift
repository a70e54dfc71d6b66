import Testing

@testable import Varlink

@Suite("Varlink IDL parsing")
struct VarlinkIDLTests {
    @Test("accepts the org.varlink.service definition and lists its methods and errors")
    func serviceIDL() throws {
        let idl = try VarlinkIDL(parsing: VarlinkService.serviceIDL)
        #expect(idl.name == "org.varlink.service")
        #expect(idl.methods == ["GetInfo", "GetInterfaceDescription"])
        #expect(idl.errors.contains("ExpectedMore"))
    }

    @Test("accepts every type form: maybe, arrays, maps, sets, enums, nested structs, named types")
    func allForms() throws {
        let idl = try VarlinkIDL(
            parsing: """
                # comment
                interface org.example.all-forms2

                type Thing (
                  foo: ?[]?[string](foo, bar, baz),
                  anon: (foo: bool, bar: bool),
                  set: [string](),
                  obj: object, f: float, i: int, s: string
                )
                method Do(thing: Thing, list: []Thing) -> (out: ?Thing)
                method Nothing() -> ()
                error Failed (reason: string)
                """)
        #expect(idl.name == "org.example.all-forms2")
        #expect(idl.types == ["Thing"])
        #expect(idl.methods == ["Do", "Nothing"])
        #expect(idl.errors == ["Failed"])
        let thing: [VarlinkField] = [
            VarlinkField(name: "foo", type: .optional(.array(.optional(.map(.enumeration(["foo", "bar", "baz"])))))),
            VarlinkField(
                name: "anon",
                type: .structure([VarlinkField(name: "foo", type: .bool), VarlinkField(name: "bar", type: .bool)])),
            VarlinkField(name: "set", type: .map(.structure([]))),
            VarlinkField(name: "obj", type: .object), VarlinkField(name: "f", type: .float),
            VarlinkField(name: "i", type: .int), VarlinkField(name: "s", type: .string),
        ]
        #expect(idl.typeDefinitions == ["Thing": .structure(thing)])
        #expect(
            idl.signatures["Do"]
                == VarlinkIDL.Signature(
                    parameters: [
                        VarlinkField(name: "thing", type: .named("Thing")),
                        VarlinkField(name: "list", type: .array(.named("Thing"))),
                    ],
                    reply: [VarlinkField(name: "out", type: .optional(.named("Thing")))]))
        #expect(idl.signatures["Nothing"] == VarlinkIDL.Signature(parameters: [], reply: []))
        #expect(idl.errorParameters == ["Failed": [VarlinkField(name: "reason", type: .string)]])
    }

    @Test(
        "rejects definitions third-party parsers would reject",
        arguments: [
            "method Foo() -> ()",
            "interface org\nmethod Foo() -> ()",
            "interface org.example.x\nmethod foo() -> ()",
            "interface org.example.x\nmethod Foo() -> (a: Unknown)",
            "interface org.example.x\nmethod Foo(a: int,) -> ()",
            "interface org.example.x\nmethod Foo(a: ??int) -> ()",
            "interface org.example.x\nmethod Foo() -> ()\nmethod Foo() -> ()",
            "interface org.example.x\nmethod Foo(a int) -> ()",
            "interface org.example.x\nmethod Foo() ()",
            "interface org.example.x\ntype T (a, b: int)\nmethod Foo() -> ()",
            "interface org.example.x\ntype T (a: int)",
            "interface org.example.x\nmethod Foo(a: [int]string) -> ()",
        ])
    func rejects(text: String) {
        let error = #expect(throws: VarlinkError.self) { try VarlinkIDL(parsing: text) }
        #expect(error?.code == .invalidInterface)
    }

    @Test("refuses a handler for a method the IDL does not declare")
    func undeclaredHandler() throws {
        var interface = try VarlinkInterface(idl: "interface org.example.x\nmethod Foo() -> ()")
        let error = #expect(throws: VarlinkError.self) {
            try interface.handle("Bar") { _, responder in responder.reply() }
        }
        #expect(error?.code == .invalidInterface)
    }

    @Test("takes a handler under the method's qualified name, and refuses another interface's")
    func qualifiedHandler() throws {
        var interface = try VarlinkInterface(idl: "interface org.example.x\nmethod Foo() -> ()")
        try interface.handle("org.example.x.Foo") { _, responder in responder.reply() }
        #expect(interface.routes.keys.sorted() == ["Foo"])
        let error = #expect(throws: VarlinkError.self) {
            try interface.handle("org.example.y.Foo") { _, responder in responder.reply() }
        }
        #expect(error?.code == .invalidInterface)
    }
}
