import Foundation
import ShowcaseCore
import Testing

@Suite("Freshness and refresh decisions")
struct RefreshTests {
    let day = Duration.seconds(86_400)
    let fetchedAt = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a roster is fresh within the lifetime and stale after it")
    func freshWithinLifetime() {
        #expect(Freshness(fetchedAt: fetchedAt, now: fetchedAt.addingTimeInterval(3600), lifetime: day) == .fresh)
        #expect(Freshness(fetchedAt: fetchedAt, now: fetchedAt.addingTimeInterval(86_400), lifetime: day) == .stale)
    }

    @Test("a fetch time from the future counts as stale")
    func futureIsStale() {
        #expect(Freshness(fetchedAt: fetchedAt, now: fetchedAt.addingTimeInterval(-60), lifetime: day) == .stale)
    }

    @Test("a never-fetched storefront is warming, which is not an empty roster")
    func warming() {
        guard case .warming = RosterRecord().answer(now: fetchedAt, lifetime: day) else {
            Issue.record("expected warming")
            return
        }
    }

    @Test(
        "a stale roster survives a transport failure (403, 429, 5xx, timeout, connection)",
        arguments: [
            LookupError.throttled(status: 403, retryAfter: nil), .throttled(status: 429, retryAfter: .seconds(30)),
            .httpStatus(503), .timeout(.seconds(10)), .connection(detail: "connection refused"),
        ])
    func staleSurvivesTransportFailure(error: LookupError) {
        var record = RosterRecord(roster: Fixtures.roster("us", fetchedAt: fetchedAt))
        let changed = record.record(.failure(error))
        #expect(!changed)
        #expect(record.lastError == error)
        guard
            case .roster(let roster, .stale) = record.answer(
                now: fetchedAt.addingTimeInterval(2 * 86_400), lifetime: day)
        else {
            Issue.record("expected the stale roster")
            return
        }
        #expect(roster.apps.count == 17)
    }

    @Test(
        "a stale roster never hides a malformed body, a missing entity parameter or an unlisted host",
        arguments: [
            LookupError.malformed(detail: "body is not JSON"),
            .missingEntityParameter(storefront: .unitedStates, resultCount: 1),
            .hostAppNotFound(bundleId: "com.quietharbor.TideLog", storefront: .unitedStates),
        ])
    func staleNeverHidesDiagnostics(error: LookupError) {
        var record = RosterRecord(roster: Fixtures.roster("us", fetchedAt: fetchedAt))
        let outcome = record.record(.failure(error))
        #expect(outcome)
        guard case .failed(let answered) = record.answer(now: fetchedAt.addingTimeInterval(60), lifetime: day) else {
            Issue.record("expected the diagnostic")
            return
        }
        #expect(answered == error)
        #expect(record.roster != nil)  // the cached roster stays for when upstream recovers
    }

    @Test("a diagnostic keeps being answered through later transport failures, until a refresh succeeds")
    func diagnosticUntilSuccess() {
        var record = RosterRecord(roster: Fixtures.roster("us", fetchedAt: fetchedAt))
        record.record(.failure(.malformed(detail: "html")))
        record.record(.failure(.throttled(status: 403, retryAfter: nil)))
        guard case .failed(.malformed) = record.answer(now: fetchedAt, lifetime: day) else {
            Issue.record("a 403 must not hide the malformed response")
            return
        }
        let outcome = record.record(.success(Fixtures.roster("us", fetchedAt: fetchedAt.addingTimeInterval(10))))
        #expect(outcome)
        guard case .roster(_, .fresh) = record.answer(now: fetchedAt.addingTimeInterval(20), lifetime: day) else {
            Issue.record("expected the fresh roster")
            return
        }
        #expect(record.lastError == nil)
    }

    @Test("a transport failure with nothing cached is unavailable")
    func unavailable() {
        var record = RosterRecord()
        record.record(.failure(.timeout(.seconds(10))))
        guard case .unavailable(.timeout) = record.answer(now: fetchedAt, lifetime: day) else {
            Issue.record("expected unavailable")
            return
        }
    }

    @Test("an identical refresh does not bump the revision; a changed one does")
    func revisionOnlyOnContentChange() {
        var record = RosterRecord(roster: Fixtures.roster("us", fetchedAt: fetchedAt))
        let start = record.revision
        let outcome = record.record(.success(Fixtures.roster("us", fetchedAt: fetchedAt.addingTimeInterval(86_400))))
        #expect(!outcome)
        #expect(record.revision == start)
        #expect(record.roster?.fetchedAt == fetchedAt.addingTimeInterval(86_400))
        let fewer = Fixtures.roster("us")
        let changed = Roster(
            artistId: fewer.artistId, storefront: fewer.storefront, fetchedAt: fetchedAt, resultCount: 17,
            apps: Array(fewer.apps.dropLast()), body: nil)
        let second = record.record(.success(changed))
        #expect(second)
        #expect(record.revision == start + 1)
    }

    @Test("the error sentences say what happened and what to do, never a Swift default description")
    func errorSentences() {
        // Each sentence names what happened (the case's own facts) and what to do (a config key or an action).
        let cases: [(LookupError, happened: [String], toDo: String)] = [
            (.connection(detail: "refused"), ["could not reach", "refused"], "lookup.endpoint"),
            (.timeout(.seconds(10)), ["did not answer within 10s"], "raise lookup.timeout"),
            (.httpStatus(500), ["HTTP 500"], "check lookup.endpoint"),
            (.throttled(status: 429, retryAfter: .seconds(120)), ["HTTP 429", "Retry-After 120s"], "rate_limit"),
            (.malformed(detail: "x"), ["not a lookup response", "(x)"], "check lookup.endpoint"),
            (
                .hostAppNotFound(bundleId: "a.b", storefront: .unitedStates), ["'a.b'", "us storefront"],
                "hosts[].bundle_id"
            ),
            (
                .missingEntityParameter(storefront: .unitedStates, resultCount: 1), ["1 result", "entity=software"],
                "lookup.endpoint"
            ),
        ]
        for (error, happened, toDo) in cases {
            let sentence = error.description
            #expect(!sentence.contains("LookupError"), "\(sentence)")
            for fact in happened { #expect(sentence.contains(fact), "\(sentence) lacks \(fact)") }
            #expect(sentence.contains(toDo), "\(sentence) does not say what to do (\(toDo))")
            #expect(!sentence.contains("\n"))
        }
        #expect(cases.map(\.0).filter(\.isTransport).count == 4)
    }
}

@Suite("Refresh plan and schedule")
struct RefreshPlanTests {
    let storefronts = ["us", "de", "jp"].map(Fixtures.storefront)

    @Test("two hosts of one developer share one roster request per storefront: S + H requests for a full warm")
    func onePerDeveloperPerStorefront() async throws {
        let transport = FixtureTransport()
        let hosts = [Fixtures.tideLog, Fixtures.knotbook]
        var identities: [String: HostIdentity] = [:]
        for request in RefreshPlan.identityRequests(hosts: hosts, identities: [:], storefront: storefronts[0]) {
            guard case .identity(let bundleId, let storefront) = request else { continue }
            identities[bundleId] = try HostIdentity.decode(
                bundleId: bundleId, storefront: storefront, body: try await transport.fetch(request), resolvedAt: Date()
            )
        }
        let rosterRequests = RefreshPlan.rosterRequests(hosts: hosts, identities: identities, storefronts: storefronts)
        for request in rosterRequests { _ = try await transport.fetch(request) }
        #expect(transport.requests.count == storefronts.count + hosts.count)
        #expect(rosterRequests == storefronts.map { .roster(artistId: Fixtures.artistId, storefront: $0) })
    }

    @Test("a cached identity is not looked up again")
    func cachedIdentityIsNotRefetched() {
        let identity = HostIdentity(
            bundleId: Fixtures.tideLog, artistId: Fixtures.artistId, trackId: Fixtures.tideLogId,
            storefront: .unitedStates, resolvedAt: Date())
        let requests = RefreshPlan.identityRequests(
            hosts: [Fixtures.tideLog, Fixtures.knotbook, Fixtures.knotbook], identities: [Fixtures.tideLog: identity],
            storefront: .unitedStates)
        #expect(requests == [.identity(bundleId: Fixtures.knotbook, storefront: .unitedStates)])
    }

    @Test("a known identity is re-resolved once it is an interval old, not before")
    func identityReresolvedPerInterval() {
        let resolvedAt = Date(timeIntervalSince1970: 1_800_000_000)
        let identity = HostIdentity(
            bundleId: Fixtures.tideLog, artistId: Fixtures.artistId, trackId: Fixtures.tideLogId,
            storefront: .unitedStates, resolvedAt: resolvedAt)
        func requests(after seconds: Double) -> [LookupRequest] {
            RefreshPlan.identityRequests(
                hosts: [Fixtures.tideLog], identities: [Fixtures.tideLog: identity], storefront: .unitedStates,
                now: resolvedAt.addingTimeInterval(seconds), lifetime: .seconds(86_400))
        }
        #expect(requests(after: 86_399).isEmpty)
        #expect(requests(after: 86_400) == [.identity(bundleId: Fixtures.tideLog, storefront: .unitedStates)])
    }

    @Test("refreshes are spread by jitter around the interval")
    func jitter() {
        let schedule = RefreshSchedule(interval: .seconds(1000), jitter: 0.1, retry: .seconds(10))
        #expect(schedule.delayAfterSuccess(unit: 0) == .seconds(900))
        #expect(schedule.delayAfterSuccess(unit: 1) == .seconds(1100))
        #expect(schedule.delayAfterSuccess(unit: 0.5) == .seconds(1000))
    }

    @Test("retries double up to the interval and never come before Retry-After, which is capped at the interval")
    func retryBackoff() {
        let schedule = RefreshSchedule(interval: .seconds(100), jitter: 0, retry: .seconds(10))
        let delays = (1...5).map { schedule.delayAfterFailure($0, error: .httpStatus(500)) }
        #expect(delays == [.seconds(10), .seconds(20), .seconds(40), .seconds(80), .seconds(100)])
        #expect(schedule.delayAfterFailure(1, error: .throttled(status: 429, retryAfter: .seconds(60))) == .seconds(60))
        #expect(
            schedule.delayAfterFailure(1, error: .throttled(status: 429, retryAfter: .seconds(86_400))) == .seconds(100)
        )
    }

    @Test("a roster cached with a future fetch time is refreshed at once, a young one at the end of its lifetime")
    func futureCachedRefreshesNow() {
        let schedule = RefreshSchedule(interval: .seconds(86_400), jitter: 0.1)
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(schedule.delayBeforeFirstRefresh(fetchedAt: now.addingTimeInterval(3600), now: now, unit: 0.5) == .zero)
        #expect(
            schedule.delayBeforeFirstRefresh(fetchedAt: now.addingTimeInterval(-3600), now: now, unit: 0.5)
                == .seconds(86_400 - 3600))
        #expect(
            schedule.delayBeforeFirstRefresh(fetchedAt: now.addingTimeInterval(-90_000), now: now, unit: 0) == .zero)
    }

    @Test("Retry-After is read as seconds or an HTTP date")
    func retryAfterParsing() {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == .seconds(30))
    }
}
