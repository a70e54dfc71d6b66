import Foundation
import ShowcaseCore

/// A transport that answers from `Fixtures/lookup` like the replay server (a roster in a language from
/// `roster-<artistId>-<cc>-<language>.json`, else the plain file), or fails in transport while `failing`
/// is set, and counts what it was asked — in process, with no socket.
final class FixtureLookup: LookupTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [LookupRequest] = []
    private var failure: LookupError?
    private var failing: @Sendable (LookupRequest) -> Bool = { _ in true }

    init(failing failure: LookupError? = nil) { self.failure = failure }

    /// Every request so far, in order.
    var asked: [LookupRequest] { lock.withLock { requests } }

    /// Makes every later request `when` selects (every one by default) fail with `error` (nil: answer again).
    func fail(with error: LookupError?, when selected: @escaping @Sendable (LookupRequest) -> Bool = { _ in true }) {
        lock.withLock {
            failure = error
            failing = selected
        }
    }

    func fetch(_ request: LookupRequest) async throws(LookupError) -> Data {
        let failure = lock.withLock { () -> LookupError? in
            requests.append(request)
            return failing(request) ? self.failure : nil
        }
        if let failure { throw failure }
        let names =
            switch request {
            case .identity(let bundleId, let storefront): ["identity-\(bundleId)-\(storefront.code).json"]
            case .roster(let artistId, let storefront, let language):
                // A language without its own file answers in the storefront's default language, as upstream does.
                (language.map { ["roster-\(artistId)-\(storefront.code)-\($0.code).json"] } ?? [])
                    + ["roster-\(artistId)-\(storefront.code).json"]
            }
        let fixtures = TestBed.fixtures
        for name in names {
            if let data = try? Data(contentsOf: fixtures.appendingPathComponent(name)) { return data }
        }
        return try! Data(contentsOf: fixtures.appendingPathComponent("empty.json"))
    }
}
