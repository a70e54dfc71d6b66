import ShowcaseAPI
import ShowcaseCore
import Testing
import Varlink

@Suite("Decoding what the daemon sends, and saying which field does not fit")
struct DecodingTests {
    /// The `Roster.Get` reply showcased wrote for `de` (the demo configuration over Fixtures/lookup), as captured
    /// from `showcasectl --json roster --storefront de`: sorted keys, nil fields left out.
    static let getReplyText = Samples.capturedReply("roster-get-de.json")
    /// The `Admin.Status` reply captured from the same daemon while `jp` was still warming.
    static let statusReplyText = Samples.capturedReply("admin-status.json")

    @Test("reads a Roster.Get reply showcased wrote, and writes the same bytes back")
    func realGetReply() throws {
        let reply = try RosterGetReply(decoding: try JSONValue(parsing: Self.getReplyText))
        #expect(reply.storefront == "de" && reply.host == "com.quietharbor.TideLog")
        #expect(reply.state == .fresh)
        #expect(reply.fetchedAt == "2026-12-01T07:41:07Z")
        #expect(reply.apps.count == 10)
        #expect(reply.apps.first?.id == 1_641_000_103 && reply.apps.first?.name == "Lanternlight")
        #expect(reply.apps.first?.tagline == "Ein Nachtlicht, das die Gezeiten kennt")
        #expect(reply.apps.filter { $0.tagline != nil }.count == 1)
        #expect(reply.apps.contains { $0.formattedPrice == "2,99 €" && $0.price == 2.99 && $0.currency == "EUR" })
        #expect(reply.apps.first?.devices == ["iphone", "ipad"])
        #expect(reply.apps.allSatisfy { !$0.devices.isEmpty })
        // The encoding is the daemon's: the same value gives the same bytes.
        #expect(String(decoding: reply.encoded().serialized(), as: UTF8.self) == Self.getReplyText)
    }

    @Test("reads an Admin.Status reply showcased wrote, a warming storefront without fetchedAt included")
    func realStatusReply() throws {
        let status = try AdminStatusReply(decoding: try JSONValue(parsing: Self.statusReplyText))
        #expect(status.version == "0.1.0" && status.configGeneration == 1 && status.lastReloadError == nil)
        #expect(status.upstream == .init(requests: 4, failures: 0, throttled: 0))
        #expect(status.storefronts.map(\.code) == ["de", "jp", "us"])
        let jp = status.storefronts[1]
        #expect(jp.state == .warming && jp.fetchedAt == nil && jp.apps == 0 && jp.lastError == nil)
        #expect(status.storefronts[0].apps == 17)
        #expect(status.storefronts.allSatisfy { $0.droppedRows == 0 && !$0.truncated })
        #expect(status.hosts.map(\.bundleId) == ["com.quietharbor.TideLog", "com.quietharbor.Knotbook"])
        #expect(status.hosts.allSatisfy { $0.artistId == 1_641_000_001 && $0.warning == nil })
        #expect(String(decoding: status.encoded().serialized(), as: UTF8.self) == Self.statusReplyText)
    }

    @Test("a missing required field is named by its full path")
    func missingFieldIsNamed() throws {
        var parsed = try JSONValue(parsing: Self.getReplyText)
        guard case .object(var members) = parsed, case .array(var apps)? = members["apps"],
            case .object(var second) = apps[1]
        else {
            Issue.record("the sample is not a Get reply")
            return
        }
        second["name"] = nil
        apps[1] = .object(second)
        members["apps"] = .array(apps)
        parsed = .object(members)
        #expect(throws: APIDecodingError(field: "apps[1].name", problem: .missing)) {
            try RosterGetReply(decoding: parsed)
        }
        let error = try #require(throws: APIDecodingError.self) { try RosterGetReply(decoding: parsed) }
        #expect(error.description == "the field 'apps[1].name' is missing")
        #expect(error.parameter == "apps")

        #expect(throws: APIDecodingError(field: "upstream.throttled", problem: .missing)) {
            try AdminStatusReply(decoding: [
                "version": "1", "configPath": "/c", "configGeneration": 1, "storefronts": [],
                "upstream": ["requests": 1, "failures": 0],
            ])
        }
        #expect(throws: APIDecodingError(field: "storefront", problem: .missing)) {
            try RosterGetRequest(decoding: ["host": "io.example.NoteJar"])
        }
    }

    @Test("a field of the wrong type is named with the type it should have")
    func wrongTypeIsNamed() {
        #expect(throws: APIDecodingError(field: "revision", problem: .wrongType(expected: "an integer"))) {
            try RosterWatchReply(decoding: ["storefront": "de", "revision": "7", "state": "fresh", "apps": []])
        }
        #expect(throws: APIDecodingError(field: "storefronts[0].warm", problem: .wrongType(expected: "a boolean"))) {
            try RosterStorefrontsReply(decoding: [
                "storefronts": [["code": "de", "alpha3": "DEU", "name": "Germany", "warm": "yes"]]
            ])
        }
        #expect(throws: APIDecodingError(field: "refreshed[1]", problem: .wrongType(expected: "a string"))) {
            try AdminRefreshReply(decoding: ["refreshed": ["de", 3], "failed": []])
        }
        #expect(throws: APIDecodingError(field: "", problem: .wrongType(expected: "an object"))) {
            try AdminReloadReply(decoding: [1, 2])
        }
    }

    @Test("fields this version does not know are ignored, since the interfaces may add fields")
    func unknownFieldsAreTolerated() throws {
        var members = try #require(try JSONValue(parsing: Self.getReplyText).objectValue)
        var apps = try #require(members["apps"]?.arrayValue)
        var first = try #require(apps[0].objectValue)
        first["averageUserRating"] = 4.5
        first["contentRating"] = "4+"
        apps[0] = .object(first)
        members["apps"] = .array(apps)
        members["language"] = "de"
        let reply = try RosterGetReply(decoding: .object(members))
        #expect(reply.apps.count == 10 && reply.apps[0].name == "Lanternlight")
        #expect(try AdminReloadReply(decoding: ["generation": 4, "changed": ["overlay"]]).generation == 4)
    }

    @Test("an App keeps the fields it has no property for: encoded again, and compared, they are still there")
    func appKeepsFieldsItHasNoPropertyFor() throws {
        var object = try #require(Samples.fullApp.encoded().objectValue)
        object["contentRating"] = "4+"
        object["sizes"] = [1, 2]
        object["nothing"] = .null
        let app = try RosterApp(decoding: .object(object))
        #expect(
            app.otherFields == Samples.fullApp.otherFields.merging(["contentRating": "4+", "sizes": [1, 2]]) { $1 })
        #expect(app.name == Samples.fullApp.name && app.genreId == Samples.fullApp.genreId)
        var again = try #require(app.encoded().objectValue)
        #expect(again["contentRating"] == "4+" && again["sizes"] == [1, 2] && again["nothing"] == nil)
        again["nothing"] = nil
        object["nothing"] = nil
        #expect(again == object, "encoding dropped or changed a member")
        // Watch compares typed apps: a change only in such a field is a change.
        var changed = object
        changed["contentRating"] = "9+"
        #expect(try RosterApp(decoding: .object(changed)) != app)
        // A property always wins over a member of the same name given by hand.
        let named = RosterApp(
            id: 1, artistId: 2, name: "N", bundleId: "b", genre: "g", formattedPrice: nil, price: nil, currency: nil,
            platform: "ios", devices: [], minimumOsVersion: "1.0", iconUrl: "i", storeUrl: "s", tagline: nil,
            otherFields: ["name": "Other", "extra": true])
        #expect(named.otherFields == ["extra": true])
        #expect(named.encoded().objectValue?["name"] == "N")
    }

    @Test("optional fields read null as absent, and a state this version does not know is kept as sent")
    func nullAndOpenStates() throws {
        let request = try RosterGetRequest(decoding: ["storefront": "de", "host": nil, "waitMs": nil])
        #expect(request == RosterGetRequest(storefront: .de))
        let watch = try RosterWatchReply(decoding: [
            "storefront": "de", "revision": 1, "state": "unavailable", "apps": [],
        ])
        #expect(watch.state == RosterState(rawValue: "unavailable"))
        #expect(watch.state != .warming)
    }

    @Test("a call's invalid parameter becomes InvalidParameter naming it, as the daemon answers")
    func requestErrorsNameTheParameter() throws {
        let negative = try #require(throws: APIDecodingError.self) {
            try RosterGetRequest(decoding: ["storefront": "de", "waitMs": -1])
        }
        #expect(negative.problem == .invalid("must not be negative"))
        #expect(negative.varlinkError == .invalidParameter("waitMs"))
        let mistyped = try #require(throws: APIDecodingError.self) {
            try RosterGetAppRequest(decoding: ["id": "42", "storefront": "de"])
        }
        #expect(mistyped.varlinkError == .invalidParameter("id"))
        // An exact float is an integer, as some clients send it.
        #expect(try RosterGetAppRequest(decoding: ["id": 42.0, "storefront": "de"]).id == 42)
    }

    @Test(
        "a storefront is parsed where the call is read: a code that is none is UnknownStorefront naming it as written")
    func storefrontParsedAtTheEdge() throws {
        #expect(try RosterGetRequest(decoding: ["storefront": " DEU "]).storefront == .de)
        #expect(try RosterGetAppRequest(decoding: ["id": 1, "storefront": "JP"]).storefront == .jp)
        #expect(try RosterWatchRequest(decoding: ["storefront": .null]).storefront == nil)
        let decoders: [(JSONValue) throws -> Void] = [
            { _ = try RosterGetRequest(decoding: $0) }, { _ = try RosterGetAppRequest(decoding: $0) },
            { _ = try RosterWatchRequest(decoding: $0) }, { _ = try RosterChangesRequest(decoding: $0) },
            { _ = try AdminRefreshRequest(decoding: $0) },
        ]
        for decode in decoders {
            for code in ["zz", "Germany", "ad"] {
                let error = try #require(throws: APIDecodingError.self) {
                    try decode(["id": 1, "storefront": .string(code)])
                }
                #expect(error.varlinkError == ShowcaseErrorReply.unknownStorefront(storefront: code).varlinkError)
                #expect(error.parameter == "storefront")
            }
            let mistyped = try #require(throws: APIDecodingError.self) { try decode(["id": 1, "storefront": 7]) }
            #expect(mistyped.varlinkError == .invalidParameter("storefront"))
        }
        // The sentence a client shows is the storefront's own: what was wrong and what to type.
        let named = try #require(throws: APIDecodingError.self) {
            try RosterGetRequest(decoding: ["storefront": "germany"])
        }
        #expect(
            named.description
                == "the field 'storefront': 'germany' is a country's name, not a code: Germany's storefront is 'de'")
    }

    @Test(
        "Get's platform, device and OS version are parsed where the call is read; text that is none is InvalidParameter"
    )
    func getFiltersParsedAtTheEdge() throws {
        let request = try RosterGetRequest(decoding: [
            "storefront": "us", "platform": "MacOS", "device": "iPad", "osVersion": "17.2",
        ])
        #expect(request.platform == .macos && request.device == .ipad && request.osVersion == OSVersion("17.2.0"))
        #expect(request.encoded() == ["storefront": "us", "platform": "macos", "device": "ipad", "osVersion": "17.2"])
        for (name, text) in [("platform", "android"), ("device", "fridge"), ("osVersion", "seventeen")] {
            let parameters: [String: JSONValue] = ["storefront": "us", name: .string(text)]
            let error = try #require(throws: APIDecodingError.self) {
                try RosterGetRequest(decoding: .object(parameters))
            }
            #expect(error.varlinkError == .invalidParameter(name), "\(name)")
        }
    }

    @Test("Get names its first invalid parameter in the interface's order, whatever order the members came in")
    func getParameterOrder() throws {
        // The members are read in one pass; the checks run in the IDL's order (storefront, host, …, waitMs).
        let cases: [(JSONValue, String)] = [
            (["waitMs": -1, "locale": 3, "host": 7], "storefront"),
            (["waitMs": -1, "locale": 3, "host": 7, "storefront": "us"], "host"),
            (["waitMs": "soon", "osVersion": 18, "storefront": "us"], "osVersion"),
            (["waitMs": -5, "storefront": "us", "device": .null], "waitMs"),
        ]
        for (parameters, named) in cases {
            let error = try #require(throws: APIDecodingError.self) { try RosterGetRequest(decoding: parameters) }
            #expect(error.varlinkError == .invalidParameter(named), "\(parameters)")
        }
        let relaxed = try RosterGetRequest(decoding: ["storefront": "us", "host": .null, "extra": [1]])
        #expect(relaxed == RosterGetRequest(storefront: .us))
    }

    @Test("the contract's caps and defaults: waitMs held at most a minute, Changes pages of 1...1000, default 100")
    func capsAndDefaults() throws {
        #expect(RosterGetRequest.maxWaitMs == 60_000)
        #expect(RosterGetRequest(storefront: .de, waitMs: 600_000).heldWaitMs == 60_000)
        #expect(RosterGetRequest(storefront: .de, waitMs: 2500).heldWaitMs == 2500)
        #expect(RosterGetRequest(storefront: .de).heldWaitMs == nil)
        #expect(try RosterChangesRequest(decoding: ["storefront": "de"]).pageSize == 100)
        #expect(try RosterChangesRequest(decoding: ["storefront": "de", "limit": 1000]).pageSize == 1000)
        for (parameters, named) in [
            (["storefront": "de", "limit": 0], "limit"), (["storefront": "de", "limit": 1001], "limit"),
            (["storefront": "de", "since": -1], "since"),
        ] as [(JSONValue, String)] {
            let error = try #require(throws: APIDecodingError.self) { try RosterChangesRequest(decoding: parameters) }
            #expect(error.varlinkError == .invalidParameter(named), "\(parameters)")
        }
    }

    @Test("an error reply names its missing parameter; errors of other interfaces are not ours")
    func errorReplies() throws {
        let partial = VarlinkError(name: ShowcaseInterfaces.Error.appNotFound, parameters: ["id": 42])
        #expect(throws: APIDecodingError(field: "storefront", problem: .missing)) { try ShowcaseErrorReply(partial) }
        #expect(try ShowcaseErrorReply(.permissionDenied()) == nil)
        #expect(try ShowcaseErrorReply(.invalidParameter("storefront")) == nil)
        #expect(try ShowcaseErrorReply(VarlinkError(code: .timeout, detail: "late")) == nil)
    }
}
