import ShowcaseAPI
import Testing
import Varlink

@Suite("The interface definitions and the names spelled beside them")
struct InterfaceTests {
    /// The unqualified part of a fully qualified name (`Get` of `io.showcase.Roster.Get`).
    static func member(_ qualified: String, of interface: String) -> String? {
        guard qualified.hasPrefix(interface + ".") else { return nil }
        return String(qualified.dropFirst(interface.count + 1))
    }

    @Test("both IDL texts parse with the Varlink module's parser, under the interface names given")
    func idlParses() throws {
        let roster = try VarlinkIDL(parsing: ShowcaseInterfaces.roster)
        let admin = try VarlinkIDL(parsing: ShowcaseInterfaces.admin)
        #expect(roster.name == ShowcaseInterfaces.rosterName)
        #expect(admin.name == ShowcaseInterfaces.adminName)
        #expect(roster.types == ["App", "Change"])
    }

    @Test("every method name constant is a method of its interface, and every method has one")
    func methodNames() throws {
        let roster = try VarlinkIDL(parsing: ShowcaseInterfaces.roster)
        let admin = try VarlinkIDL(parsing: ShowcaseInterfaces.admin)
        let names = [
            ShowcaseInterfaces.Method.get, ShowcaseInterfaces.Method.getApp, ShowcaseInterfaces.Method.storefronts,
            ShowcaseInterfaces.Method.watch, ShowcaseInterfaces.Method.changes, ShowcaseInterfaces.Method.health,
            ShowcaseInterfaces.Method.status,
            ShowcaseInterfaces.Method.reload, ShowcaseInterfaces.Method.refresh, ShowcaseInterfaces.Method.export,
            ShowcaseInterfaces.Method.metrics,
        ]
        #expect(names.compactMap { Self.member($0, of: roster.name) } == roster.methods)
        #expect(names.compactMap { Self.member($0, of: admin.name) } == admin.methods)
    }

    @Test("every error name constant is an error of its interface, and every error has a typed case")
    func errorNames() throws {
        let roster = try VarlinkIDL(parsing: ShowcaseInterfaces.roster)
        let admin = try VarlinkIDL(parsing: ShowcaseInterfaces.admin)
        let typed: [ShowcaseErrorReply] = [
            .unknownStorefront(storefront: ""), .unknownHost(host: ""), .appNotFound(id: 0, storefront: ""),
            .hostAppNotFound(host: "", storefront: ""), .malformedResponse(storefront: "", detail: ""),
            .missingEntityParameter(storefront: ""), .unavailable(storefront: "", reason: ""),
            .configInvalid(file: "", line: 0, column: 0, message: ""), .exportNotConfigured,
        ]
        let names = typed.map(\.name)
        #expect(Set(names.compactMap { Self.member($0, of: roster.name) }) == Set(roster.errors))
        #expect(Set(names.compactMap { Self.member($0, of: admin.name) }) == Set(admin.errors))
        #expect(names.count == roster.errors.count + admin.errors.count)
    }
}
