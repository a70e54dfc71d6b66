import Foundation
import ShowcaseAPI
import ShowcaseCore
import ShowcaseExport
import Testing
import Varlink

@testable import ShowcaseDaemon

/// The Varlink `App` and the export's app object are two renderings of one projection
/// (`ResolvedApp.writeFields(to:)`): these fail when either writer, or the contract's `RosterApp`, drops, renames or
/// retypes a field, and when the projection and the IDL's `App` stop listing the same fields in the same order.
@Suite("One app projection: the Varlink App and the export's app object")
struct AppProjectionTests {
    /// The fixture's `de` roster as TideLog's query resolves it, with a tagline and attribution on every app and,
    /// for one app, no price fields, so every optional field is both present and absent at least once.
    static let resolved: [ResolvedApp] = {
        let roster = InProcessFixtures.roster("de", fetchedAt: Date(timeIntervalSince1970: 1_795_000_000))
        let taglines = Dictionary(
            uniqueKeysWithValues: roster.apps.dropFirst(2).map { ($0.id, Tagline.plain("Mit \"Gezeiten\" \($0.id)")) })
        var query = RosterQuery(
            hostBundleId: TestBed.tideLog, platform: .ios, overlay: Overlay(taglines: taglines),
            attribution: Attribution(providerToken: "1234567"))
        query.everyDevice = true
        var resolved = query.resolve(roster)
        resolved[1].app.formattedPrice = nil
        resolved[1].app.price = nil
        resolved[1].app.currency = nil
        return resolved
    }()

    /// The export's object for `app` (its document's only app), parsed, without the export's own members.
    private func exported(_ app: ResolvedApp) throws -> [String: JSONValue] {
        let document = ExportDocument(
            host: TestBed.tideLog, storefront: TestBed.storefront("de"), platform: app.app.platform, revision: 1,
            revisedAt: Date(timeIntervalSince1970: 1_795_000_000), apps: [ExportedApp(app, tagline: nil)])
        let parsed = try JSONValue(parsing: Array(document.encoded()))
        guard case .object(let members) = parsed, case .array(let apps) = members["apps"], apps.count == 1,
            case .object(var object) = apps[0]
        else {
            Issue.record("no single app object in \(String(decoding: document.encoded(), as: UTF8.self))")
            return [:]
        }
        object["taglines"] = nil
        object["icons"] = nil
        return object
    }

    @Test("the export's app object has exactly the Varlink App's fields, with the same values")
    func sameFieldsSameValues() throws {
        #expect(Self.resolved.count >= 5)
        #expect(Self.resolved.contains { $0.tagline != nil } && Self.resolved.contains { $0.tagline == nil })
        #expect(Self.resolved.contains { $0.app.price == nil } && Self.resolved.contains { $0.app.price != nil })
        for app in Self.resolved {
            guard case .object(let varlink) = ReplyEncoding.app(app).encoded() else {
                Issue.record("the Varlink App of \(app.id) is not an object")
                continue
            }
            let export = try exported(app)
            #expect(export.keys.sorted() == varlink.keys.sorted(), "app \(app.id)")
            #expect(export == varlink, "app \(app.id)")
        }
    }

    @Test("the contract's RosterApp carries every projected field: what the daemon sends is what the projection wrote")
    func rosterAppDropsNothing() throws {
        for app in Self.resolved {
            let written = VarlinkAppFields.object(app)
            #expect(try RosterApp(decoding: written).encoded() == written, "app \(app.id)")
        }
        // Get's and GetApp's replies place the projection's objects as written: the same as the typed replies.
        let roster = InProcessFixtures.roster("de", fetchedAt: Date(timeIntervalSince1970: 1_795_000_000))
        let view = RosterView(
            .roster(roster, .fresh), revision: 1, identity: nil, version: RosterViewTests.version,
            request: InProcessFixtures.request("de"))
        #expect(!view.apps.isEmpty)
        let typed = RosterGetReply(
            storefront: "de", host: TestBed.tideLog, state: .fresh, fetchedAt: "2026-11-18T11:06:40Z",
            apps: view.apps.map(ReplyEncoding.app))
        #expect(try ReplyEncoding.get(view) == typed.encoded())
        for app in view.apps {
            let reply = try ReplyEncoding.getApp(view, id: Int64(app.id))
            #expect(reply == RosterGetAppReply(app: ReplyEncoding.app(app)).encoded(), "app \(app.id)")
        }
    }

    /// The fixture's `de` roster as TideLog sees it with a tagline for every app and attribution: every field of
    /// the table present on at least one app.
    static func fullView(_ answer: (Roster) -> RosterAnswer = { .roster($0, .fresh) }) -> RosterView {
        let roster = InProcessFixtures.roster("de", fetchedAt: Date(timeIntervalSince1970: 1_795_000_000))
        var configuration = InProcessFixtures.configuration(storefronts: ["de"])
        configuration.hosts[0].overlay = Overlay(
            taglines: Dictionary(uniqueKeysWithValues: roster.apps.map { ($0.id, Tagline.plain("Über \($0.id)")) }))
        configuration.attribution = Attribution(providerToken: "1234567")
        return RosterView(
            answer(roster), revision: 4, identity: nil, version: RosterViewTests.version,
            request: InProcessFixtures.request("de", configuration))
    }

    @Test("GetApp's reply is the App Get serves for that id, every field of the table in it, as it was written")
    func getAppIsGetsApp() throws {
        let view = Self.fullView()
        let get = try #require(try ReplyEncoding.get(view)["apps"]?.arrayValue)
        #expect(get.count >= 5)
        let names = Set(AppField.all.map(\.name))
        #expect(get.contains { Set(($0.objectValue ?? [:]).keys) == names }, "an app with every field")
        for app in get {
            let id = try #require(app["id"]?.intValue)
            let reply = try ReplyEncoding.getApp(view, id: id)
            // The wire as the hand-built reply sent it: one member, the App object as written, byte for byte.
            #expect(reply == .object(["app": app]), "app \(id)")
            #expect(reply.serialized() == Array(#"{"app":"#.utf8) + app.serialized() + Array("}".utf8), "app \(id)")
            #expect(try RosterGetAppReply(decoding: reply).app == RosterApp(decoding: app), "app \(id)")
        }
    }

    @Test("a Watch reply's bytes are the typed RosterWatchReply's, its apps Get's, each app encoded once")
    func watchIsTypedReply() throws {
        let states: [(RosterView, RosterState)] = [
            (Self.fullView(), .fresh), (Self.fullView { .roster($0, .stale) }, .stale),
            (Self.fullView { _ in .warming }, .warming),
        ]
        for (view, state) in states {
            let apps = WatchApps(view.apps)
            let bytes = try ReplyEncoding.watch(view, revision: 9, apps: apps)
            // What the reply was when each app was read into a RosterApp and encoded again.
            let typed = RosterWatchReply(
                storefront: "de", revision: 9, state: state, apps: view.apps.map(ReplyEncoding.app))
            #expect(bytes == typed.encoded().serialized(), "\(state)")
            let parsed = try JSONValue(parsing: bytes)
            #expect(parsed["apps"] == (try ReplyEncoding.get(view))["apps"], "\(state)")
            #expect(try ReplyEncoding.watch(view) == ReplyEncoding.watch(view, revision: 4, apps: apps))
        }
        #expect(!Self.fullView().apps.isEmpty)
    }

    @Test("the projection lists the IDL's App fields in the IDL's order")
    func idlOrder() throws {
        let idl = try VarlinkIDL(parsing: ShowcaseInterfaces.roster)
        guard case .structure(let fields) = idl.typeDefinitions["App"] else {
            Issue.record("the Roster IDL declares no App structure")
            return
        }
        // One app with every optional field present.
        let full = try #require(Self.resolved.first { $0.tagline != nil && $0.app.price != nil })
        #expect(full.fieldNames == fields.map(\.name))
    }
}
