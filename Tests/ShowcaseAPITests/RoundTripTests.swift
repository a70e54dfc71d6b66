import ShowcaseAPI
import Testing
import Varlink

@Suite("Typed values survive encoding and decoding")
struct RoundTripTests {
    /// Encodes, serializes to bytes, parses them back and decodes: the path a value takes over the socket.
    static func overTheWire<T: APIValue>(_ value: T) throws -> T {
        let bytes = value.encoded().serialized()
        return try T(decoding: try JSONValue(parsing: bytes))
    }

    @Test("every request comes back equal, with its optional fields set and unset")
    func requests() throws {
        let gets = [
            RosterGetRequest(storefront: .de),
            Samples.fullGetRequest,
        ]
        for request in gets { #expect(try Self.overTheWire(request) == request) }
        for request in [RosterGetAppRequest(id: 42, storefront: .jp), .init(id: 1, storefront: .us, host: "h")] {
            #expect(try Self.overTheWire(request) == request)
        }
        for request in [RosterWatchRequest(), RosterWatchRequest(storefront: .de, host: "io.example.NoteJar")] {
            #expect(try Self.overTheWire(request) == request)
        }
        for request in [
            RosterChangesRequest(storefront: .de), .init(storefront: .us, host: "h", since: 41, limit: 5),
            .init(storefront: .ca, locale: "fr"),
        ] {
            #expect(try Self.overTheWire(request) == request)
        }
        for request in [AdminRefreshRequest(), AdminRefreshRequest(storefront: .jp)] {
            #expect(try Self.overTheWire(request) == request)
        }
    }

    @Test("every reply comes back equal, with its optional fields set and unset")
    func replies() throws {
        let apps = [Samples.fullApp, Samples.bareApp]
        let get = RosterGetReply(
            storefront: "de", host: "io.example.NoteJar", state: .fresh, fetchedAt: "2026-11-29T14:18:43Z", apps: apps)
        let warming = RosterGetReply(
            storefront: "jp", host: "io.example.NoteJar", state: .warming, fetchedAt: nil, apps: [])
        #expect(try Self.overTheWire(get) == get)
        let changes = RosterChangesReply(
            storefront: "de", host: "io.example.NoteJar", latest: 7,
            changes: Samples.changes)
        #expect(try Self.overTheWire(changes) == changes)
        #expect(
            try Self.overTheWire(RosterChangesReply(storefront: "jp", host: "h", latest: 0, changes: [])).latest == 0)
        #expect(try Self.overTheWire(warming) == warming)
        #expect(
            try Self.overTheWire(RosterGetAppReply(app: Samples.bareApp)) == RosterGetAppReply(app: Samples.bareApp))
        let storefronts = RosterStorefrontsReply(storefronts: [
            .init(code: "de", alpha3: "DEU", name: "Germany", warm: true),
            .init(code: "jp", alpha3: "JPN", name: "Japan", warm: false),
        ])
        #expect(try Self.overTheWire(storefronts) == storefronts)
        let watch = RosterWatchReply(storefront: "de", revision: 7, state: .stale, apps: apps)
        #expect(try Self.overTheWire(watch) == watch)
        #expect(try Self.overTheWire(Samples.fullStatus) == Samples.fullStatus)
        var status = Samples.fullStatus
        status.hosts = []
        status.export = nil
        status.storefronts = [
            .init(
                code: "de", state: .fresh, fetchedAt: "2026-11-29T14:18:43Z", nextRefreshAt: "2026-11-30T13:02:11Z",
                apps: 30, lastError: nil),
            .init(
                code: "jp", state: .failed, fetchedAt: nil, nextRefreshAt: nil, apps: 0,
                lastError: "MalformedResponse: results is not an array"),
        ]
        #expect(try Self.overTheWire(status) == status)
        var quiet = status
        quiet.lastReloadError = nil
        quiet.storefronts = []
        #expect(try Self.overTheWire(quiet) == quiet)
        var exporting = status
        exporting.export = .init(
            directory: "/var/lib/showcase/export", exportedAt: "2026-11-29T14:18:44Z", errors: 2,
            lastError: "could not write /var/lib/showcase/export/v1/index.json: No space left on device")
        #expect(try Self.overTheWire(exporting) == exporting)
        exporting.export = .init(directory: "/srv/export", exportedAt: nil, errors: 0, lastError: nil)
        #expect(try Self.overTheWire(exporting) == exporting)
        #expect(status.encoded()["export"] == nil, "no export section, no export member")
        #expect(try Self.overTheWire(AdminReloadReply(generation: 12)) == AdminReloadReply(generation: 12))
        let refresh = AdminRefreshReply(refreshed: ["de", "us"], failed: [.init(storefront: "jp", error: "HTTP 503")])
        #expect(try Self.overTheWire(refresh) == refresh)
        let export = AdminExportReply(
            directory: "/var/lib/showcase/export", written: 4, unchanged: 342, removed: 2,
            errors: ["could not write /var/lib/showcase/export/v1/index.json: No space left on device"])
        #expect(try Self.overTheWire(export) == export)
        #expect(export.encoded()["errors"]?.arrayValue?.count == 1)
        let health = RosterHealthReply(
            state: .degraded, refreshIntervalSeconds: 86_400,
            storefronts: [
                .init(code: "de", state: .fresh, ageSeconds: 120, error: nil),
                .init(code: "jp", state: .failed, ageSeconds: nil, error: "io.showcase.Roster.MalformedResponse"),
            ])
        #expect(try Self.overTheWire(health) == health)
        #expect(health.encoded()["problems"] == nil, "omitted when there is none")
        let problem = ServiceProblem(kind: ServiceProblem.history, host: "h", storefront: "us", detail: "set aside")
        let troubled = RosterHealthReply(
            state: .degraded, refreshIntervalSeconds: 60, storefronts: [], problems: [problem])
        #expect(try Self.overTheWire(troubled) == troubled)
        let paged = RosterChangesReply(storefront: "de", host: "h", latest: 9, changes: Samples.changes, more: true)
        #expect(try Self.overTheWire(paged).more)
        let french = RosterChangesReply(
            storefront: "ca", host: "h", latest: 2, changes: Samples.changes, language: "fr",
            languages: [.init(language: "en", latest: 0), .init(language: "fr", latest: 2)])
        #expect(try Self.overTheWire(french) == french)
        #expect(changes.encoded()["languages"] == nil, "omitted for a storefront without languages")
        #expect(try !Self.overTheWire(changes).more)
        let metrics = AdminMetricsReply(text: "# HELP a b\n# TYPE a gauge\na 1\n")
        #expect(try Self.overTheWire(metrics) == metrics)
    }

    @Test("nil fields are left out of the encoding, not sent as null")
    func nilFieldsAreOmitted() {
        #expect(RosterGetRequest(storefront: .de).encoded() == ["storefront": "de"])
        #expect(RosterWatchRequest().encoded() == [:])
        #expect(AdminRefreshRequest().encoded() == [:])
        let app = Samples.bareApp.encoded()
        #expect(app["formattedPrice"] == nil && app["tagline"] == nil)
        #expect(app["name"] == "Windrose")
        let warming = RosterGetReply(storefront: "jp", host: "h", state: .warming, fetchedAt: nil, apps: [])
        #expect(warming.encoded()["fetchedAt"] == nil)
        #expect(warming.encoded()["apps"] == [])
        let health = RosterHealthReply.Storefront(code: "jp", state: .warming, ageSeconds: nil, error: nil).encoded()
        #expect(health["ageSeconds"] == nil && health["error"] == nil)
        #expect(health["state"] == "warming")
    }

    @Test("every error of both interfaces comes back equal from the VarlinkError a handler throws")
    func errors() throws {
        let all = Samples.errors
        for error in all {
            let sent = error.varlinkError
            #expect(sent.code == .reply)
            let received = VarlinkError(
                name: sent.name, parameters: try JSONValue(parsing: sent.parameters.serialized()))
            #expect(try ShowcaseErrorReply(received) == error)
        }
        #expect(Set(all.map(\.name)).count == all.count)
    }
}
