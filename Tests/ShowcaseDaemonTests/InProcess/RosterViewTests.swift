import Foundation
import ShowcaseAPI
import ShowcaseCore
import Testing
import Varlink

@testable import ShowcaseDaemon

@Suite("Roster replies: one state per answer, the same in Get, GetApp, Watch and Status")
struct RosterViewTests {
    static let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)
    static let roster = InProcessFixtures.roster("us", fetchedAt: fetchedAt)
    /// A version for views built without a state (they are never kept).
    static let version = AnswerVersion(version: 0, storefront: StorefrontStamp(), storefrontValue: 0)
    static let lanternlight: Int64 = 1_641_000_103

    /// Every answer the store can give, with the state it shows and the error `Get` answers instead (nil: a reply).
    static let cases: [(answer: RosterAnswer, state: ServedState, error: String?)] = [
        (.roster(roster, .fresh), .fresh, nil),
        (.roster(roster, .stale), .stale, nil),
        (.warming, .warming, nil),
        (.unavailable(.timeout(.seconds(10))), .unavailable, ShowcaseInterfaces.Error.unavailable),
        (.failed(.malformed(detail: "an HTML page")), .failed, ShowcaseInterfaces.Error.malformedResponse),
        (
            .failed(.missingEntityParameter(storefront: .unitedStates, resultCount: 1)), .failed,
            ShowcaseInterfaces.Error.missingEntityParameter
        ),
        (
            .failed(.hostAppNotFound(bundleId: TestBed.tideLog, storefront: .unitedStates)), .failed,
            ShowcaseInterfaces.Error.hostAppNotFound
        ),
    ]

    func view(_ answer: RosterAnswer, appID: Int? = nil) -> RosterView {
        let request = InProcessFixtures.request("us", InProcessFixtures.configuration(appID: appID))
        return RosterView(answer, revision: 3, identity: nil, version: Self.version, request: request)
    }

    /// `Watch`'s reply parameters for `view`, parsed from the bytes a stream is sent.
    func watchReply(_ view: RosterView) throws(VarlinkError) -> JSONValue {
        let bytes = try ReplyEncoding.watch(view)
        return (try? JSONValue(parsing: bytes)) ?? .null
    }

    func errorName(_ body: () throws(VarlinkError) -> JSONValue) -> String? {
        do throws(VarlinkError) {
            _ = try body()
            return nil
        } catch {
            return error.name
        }
    }

    @Test("each answer maps to one wire state, and Get and Watch answer it alike: a reply or the same error")
    func getAndWatchAgree() throws {
        for (answer, state, error) in Self.cases {
            let view = view(answer)
            #expect(view.state == state)
            #expect(errorName { () throws(VarlinkError) in try ReplyEncoding.get(view) } == error, "\(state)")
            #expect(errorName { () throws(VarlinkError) in try watchReply(view) } == error, "\(state)")
            guard error == nil else { continue }
            let get = try ReplyEncoding.get(view)
            let watch = try watchReply(view)
            #expect(get["state"]?.stringValue == state.rawValue)
            #expect(watch["state"]?.stringValue == state.rawValue)
            #expect(watch["revision"] == .int(3))
            #expect((get["fetchedAt"] != nil) == (state != .warming))
            #expect(get["apps"]?.arrayValue?.isEmpty == (state == .warming))
        }
    }

    @Test("a transport failure with nothing cached is Unavailable in Get and Watch and 'unavailable' in Status")
    func unavailableIsNeverWarming() {
        let view = view(.unavailable(.connection(detail: "refused")))
        #expect(view.state == .unavailable)
        #expect(view.state.rawValue == "unavailable")
        let watchError = errorName { () throws(VarlinkError) in try watchReply(view) }
        #expect(watchError == ShowcaseInterfaces.Error.unavailable)
        let report = StatusReport(
            configPath: "/x", configGeneration: 1, upstream: Upstream.Counters(),
            storefronts: [
                StatusReport.Storefront(storefront: .unitedStates, state: view.state, apps: 0)
            ])
        let status = ReplyEncoding.status(report)
        #expect(status["storefronts"]?.arrayValue?.first?["state"]?.stringValue == "unavailable")
    }

    @Test("GetApp answers an app from a fresh or stale roster, Unavailable while warming, the same errors as Get")
    func getAppMapping() throws {
        for (answer, state, error) in Self.cases {
            let view = view(answer)
            let name = errorName { () throws(VarlinkError) in try ReplyEncoding.getApp(view, id: Self.lanternlight) }
            switch state {
            case .fresh, .stale:
                #expect(name == nil)
                let reply = try ReplyEncoding.getApp(view, id: Self.lanternlight)
                #expect(reply["app"]?["id"] == .int(Self.lanternlight))
                let missing = errorName { () throws(VarlinkError) in try ReplyEncoding.getApp(view, id: 42) }
                #expect(missing == ShowcaseInterfaces.Error.appNotFound)
            case .warming: #expect(name == ShowcaseInterfaces.Error.unavailable)
            case .unavailable, .failed: #expect(name == error)
            }
        }
    }

    @Test("before its identity resolves, a host is kept out of its own roster by hosts[].app_id")
    func appIDFallback() throws {
        // A host whose bundle id the roster does not spell: only `app_id` can tell which app is the host.
        let apps = { (appID: Int?) throws -> [Int64] in
            let configuration = InProcessFixtures.configuration(host: "com.quietharbor.TideLogBeta", appID: appID)
            let request = InProcessFixtures.request("us", configuration)
            let view = RosterView(
                .roster(Self.roster, .fresh), revision: 1, identity: nil, version: Self.version, request: request)
            return try ReplyEncoding.get(view)["apps"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
        }
        let tideLog = Int64(InProcessFixtures.tideLogId)
        #expect(try apps(nil).contains(tideLog))
        #expect(try !apps(InProcessFixtures.tideLogId).contains(tideLog))
    }
}
