import Foundation
import ShowcaseAPI
import Testing
import Varlink

/// Every typed value of ShowcaseAPI, encoded, against the IDL text beside it: a field misspelt, mistyped or left out
/// on both the encoding and the decoding side passes a round trip, and fails here.
@Suite("Typed values against the IDL's field lists")
struct IDLConformanceTests {
    /// A declaration of one of the interfaces that a JSON object travels as.
    enum Declaration: Hashable, CustomStringConvertible {
        /// A method's call parameters (`Get` → `RosterGetRequest`).
        case parameters(String)
        /// A method's reply (`Get` → `RosterGetReply`).
        case reply(String)
        /// An error's parameters (`ShowcaseErrorReply`).
        case error(String)
        /// A named type (`App` → `RosterApp`).
        case type(String)

        var description: String {
            switch self {
            case .parameters(let method): "\(method) parameters"
            case .reply(let method): "\(method) reply"
            case .error(let name): "error \(name)"
            case .type(let name): "type \(name)"
            }
        }

        /// The fields `idl` declares for this; nil when it declares no such thing.
        func fields(in idl: VarlinkIDL) -> [VarlinkField]? {
            switch self {
            case .parameters(let method): idl.signatures[method]?.parameters
            case .reply(let method): idl.signatures[method]?.reply
            case .error(let name): idl.errorParameters[name]
            case .type(let name):
                if case .structure(let fields) = idl.typeDefinitions[name] { fields } else { nil }
            }
        }
    }

    static let roster = try! VarlinkIDL(parsing: ShowcaseInterfaces.roster)
    static let admin = try! VarlinkIDL(parsing: ShowcaseInterfaces.admin)

    /// Each declaration with the encodings of typed samples that, together, set every optional field once.
    /// Each declaration with typed samples that, together, set every optional field once (errors aside).
    static let typed: [(VarlinkIDL, Declaration, [any APIValue])] = {
        let apps = [Samples.fullApp, Samples.bareApp]
        let changes = Samples.changes
        let roster: [(Declaration, [any APIValue])] = [
            (
                .parameters("Get"),
                [
                    RosterGetRequest(storefront: .de),
                    Samples.fullGetRequest,
                ]
            ),
            (
                .reply("Get"),
                [
                    RosterGetReply(
                        storefront: "de", host: "io.example.NoteJar", state: .fresh, fetchedAt: "2026-11-29T14:18:43Z",
                        apps: apps),
                    RosterGetReply(
                        storefront: "jp", host: "io.example.NoteJar", state: .warming, fetchedAt: nil, apps: []),
                ]
            ),
            (.parameters("GetApp"), [RosterGetAppRequest(id: 1, storefront: .us, host: "io.example.NoteJar")]),
            (.reply("GetApp"), [RosterGetAppReply(app: Samples.fullApp)]),
            (
                .reply("Storefronts"),
                [RosterStorefrontsReply(storefronts: [.init(code: "de", alpha3: "DEU", name: "Germany", warm: true)])]
            ),
            (
                .parameters("Watch"),
                [RosterWatchRequest(), RosterWatchRequest(storefront: .de, host: "io.example.NoteJar")]
            ),
            (.reply("Watch"), [RosterWatchReply(storefront: "de", revision: 7, state: .stale, apps: apps)]),
            (
                .parameters("Changes"),
                [RosterChangesRequest(storefront: .us, host: "h", since: 41, limit: 5, locale: "fr-CA")]
            ),
            (
                .reply("Changes"),
                [
                    RosterChangesReply(storefront: "de", host: "io.example.NoteJar", latest: 7, changes: changes),
                    RosterChangesReply(
                        storefront: "ca", host: "h", latest: 9, changes: changes, more: true, language: "fr",
                        languages: [.init(language: "en", latest: 0), .init(language: "fr", latest: 9)]),
                ]
            ),
            (
                .reply("Health"),
                [
                    RosterHealthReply(
                        state: .degraded, refreshIntervalSeconds: 86_400,
                        storefronts: [
                            .init(code: "de", state: .fresh, ageSeconds: 120, error: nil),
                            .init(
                                code: "jp", state: .failed, ageSeconds: nil,
                                error: "io.showcase.Roster.MalformedResponse"),
                        ]),
                    RosterHealthReply(
                        state: .degraded, refreshIntervalSeconds: 60, storefronts: [],
                        problems: [
                            ServiceProblem(
                                kind: ServiceProblem.history, host: "io.example.NoteJar", storefront: "ca/fr",
                                detail: "set aside")
                        ]),
                ]
            ),
            (.type("App"), apps),
            (.type("Change"), changes),
        ]
        let admin: [(Declaration, [any APIValue])] = [
            (.reply("Status"), [Samples.fullStatus]),
            (.reply("Reload"), [AdminReloadReply(generation: 12)]),
            (.parameters("Refresh"), [AdminRefreshRequest(storefront: .jp)]),
            (
                .reply("Refresh"),
                [AdminRefreshReply(refreshed: ["de"], failed: [.init(storefront: "jp", error: "HTTP 503")])]
            ),
            (
                .reply("Export"),
                [AdminExportReply(directory: "/srv/export", written: 4, unchanged: 342, removed: 2, errors: ["ENOSPC"])]
            ),
            (.reply("Metrics"), [AdminMetricsReply(text: "# HELP a b\na 1\n")]),
        ]
        return roster.map { (Self.roster, $0, $1) } + admin.map { (Self.admin, $0, $1) }
    }()

    /// Every declaration with the encodings of its samples: the typed values' and each error's parameters.
    static let samples: [(VarlinkIDL, Declaration, [JSONValue])] = {
        func member(_ name: String) -> String { String(name.split(separator: ".").last!) }
        let errors = Dictionary(grouping: Samples.errors) { member($0.name) }.map { name, cases in
            (
                cases[0].name.hasPrefix(ShowcaseInterfaces.adminName + ".") ? Self.admin : Self.roster,
                Declaration.error(name), cases.map(\.parameters)
            )
        }
        return typed.map { ($0, $1, $2.map { $0.encoded() }) } + errors
    }()

    /// The names of the top-level `APIValue` types declared under `Sources/ShowcaseAPI`, read from the files.
    static func declaredValueTypes() throws -> Set<String> {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ShowcaseAPI")
        var names = Set<String>()
        for file in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n")
            where line.hasPrefix("public struct ") && line.contains(": APIValue") {
                names.insert(String(line.dropFirst("public struct ".count).prefix { $0 != ":" && $0 != " " }))
            }
        }
        return names
    }

    /// The value as a client receives it: serialized and parsed again.
    static func overTheWire(_ value: JSONValue) throws -> JSONValue { try JSONValue(parsing: value.serialized()) }

    @Test(
        "every typed request, reply, type and error encodes only declared fields, of the declared types, none left out")
    func everyValueConforms() throws {
        for (idl, declaration, values) in Self.samples {
            let fields = try #require(declaration.fields(in: idl), "\(idl.name) has no \(declaration)")
            let checker = IDLConformance(idl: idl)
            for value in values {
                let problems = checker.problems(try Self.overTheWire(value), fields: fields)
                #expect(problems.isEmpty, "\(idl.name) \(declaration): \(problems)")
            }
        }
    }

    @Test("the samples set every field the IDL declares, optional ones included, so a misspelt one cannot hide")
    func samplesSetEveryField() throws {
        for (idl, declaration, values) in Self.samples {
            let fields = try #require(declaration.fields(in: idl))
            let checker = IDLConformance(idl: idl)
            let set = try values.reduce(into: Set<String>()) {
                $0.formUnion(checker.setPaths(try Self.overTheWire($1), fields: fields))
            }
            let unset = checker.declaredPaths(fields).subtracting(set)
            #expect(unset.isEmpty, "\(idl.name) \(declaration): no sample sets \(unset.sorted())")
        }
    }

    @Test("every method's parameters and reply, every error and every type of both interfaces has typed samples")
    func everyDeclarationHasSamples() {
        for idl in [Self.roster, Self.admin] {
            var declared = Set<Declaration>()
            for method in idl.methods {
                if idl.signatures[method]?.parameters.isEmpty == false { declared.insert(.parameters(method)) }
                declared.insert(.reply(method))
            }
            declared.formUnion(idl.errors.map(Declaration.error))
            declared.formUnion(idl.types.map(Declaration.type))
            let sampled = Set(Self.samples.filter { $0.0.name == idl.name }.map(\.1))
            #expect(
                declared == sampled,
                "\(idl.name): unsampled \(declared.subtracting(sampled)), unknown \(sampled.subtracting(declared))")
        }
    }

    @Test("every request and reply type ShowcaseAPI declares is among the samples, so a new one cannot go unchecked")
    func everyTypeHasSamples() throws {
        let sampled = Set(Self.typed.flatMap { $0.2.map { String(describing: type(of: $0)) } })
        let declared = try Self.declaredValueTypes()
        #expect(declared.count >= 18, "\(declared)")
        #expect(declared.subtracting(sampled).isEmpty, "no samples of \(declared.subtracting(sampled).sorted())")
    }

    /// A deliberately wrong twin of `RosterGetRequest`: `storefront` misspelt, `waitMs` sent as a string.
    struct MisspeltGetRequest: APIValue {
        var storefront: String
        var waitMs: String

        init(from object: APIObjectReader) throws(APIDecodingError) {
            storefront = try object.string("storeFront")
            waitMs = try object.string("waitMs")
        }

        init(storefront: String, waitMs: String) {
            self.storefront = storefront
            self.waitMs = waitMs
        }

        func encoded() -> JSONValue { ["storeFront": .string(storefront), "waitMs": .string(waitMs)] }
    }

    @Test("the checker fails a misspelt, mistyped, null or missing field, and a sample set that leaves one unset")
    func checkerCatchesMistakes() throws {
        let checker = IDLConformance(idl: Self.roster)
        let get = try #require(Self.roster.signatures["Get"])
        // The wrong type round-trips through its own decoder, which is why the IDL has to be the judge.
        let wrong = MisspeltGetRequest(storefront: "de", waitMs: "soon")
        #expect(try MisspeltGetRequest(decoding: wrong.encoded()) == wrong)
        #expect(
            checker.problems(try Self.overTheWire(wrong.encoded()), fields: get.parameters) == [
                "'storeFront' is not a field the IDL declares", "'storefront' is missing",
                "'waitMs' is a string where the IDL declares int",
            ])
        // Deep inside a reply: an app's device list of numbers, a required field null, a price as a string.
        var app = Samples.fullApp.encoded().objectValue!
        app["devices"] = [1]
        app["name"] = .null
        app["price"] = "2.99"
        let reply: JSONValue = ["storefront": "de", "host": "h", "state": "fresh", "apps": [.object(app)]]
        #expect(
            checker.problems(reply, fields: get.reply) == [
                "'apps[0].name' is null where the IDL declares string",
                "'apps[0].price' is a string where the IDL declares float",
                "'apps[0].devices[0]' is an integer where the IDL declares string",
            ])
        // Only bare apps: no sample sets the optional price fields, so a misspelt one would go unseen.
        let set = checker.setPaths(
            RosterGetReply(storefront: "de", host: "h", state: .fresh, fetchedAt: "x", apps: [Samples.bareApp])
                .encoded(),
            fields: get.reply)
        #expect(
            checker.declaredPaths(get.reply).subtracting(set)
                == [
                    "apps[].formattedPrice", "apps[].price", "apps[].currency", "apps[].tagline", "apps[].genreId",
                    "apps[].contentAdvisoryRating",
                ])
        // And the real request passes the same checker.
        #expect(
            checker.problems(RosterGetRequest(storefront: .de, waitMs: 5).encoded(), fields: get.parameters).isEmpty)
    }
}
