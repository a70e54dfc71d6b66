import Foundation
import ShowcaseCore

/// A transport that answers from `Fixtures/lookup` like the replay server (a roster in a language from
/// `roster-<artistId>-<cc>-<language>.json`), or fails in transport while `failing`
/// is set, and counts what it was asked — in process, with no socket.
final class FixtureLookup: LookupTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [LookupRequest] = []
    private var failure: LookupError?

    init(failing failure: LookupError? = nil) { self.failure = failure }

    /// Every request so far, in order.
    var asked: [LookupRequest] { lock.withLock { requests } }

    /// Makes every later request fail with `error` (nil: answer again).
    func fail(with error: LookupError?) { lock.withLock { failure = error } }

    func fetch(_ request: LookupRequest) async throws(LookupError) -> Data {
        let failure = lock.withLock { () -> LookupError? in
            requests.append(request)
            return self.failure
        }
        if let failure { throw failure }
        let name =
            switch request {
            case .identity(let bundleId, let storefront): "identity-\(bundleId)-\(storefront.code).json"
            case .roster(let artistId, let storefront, let language):
                "roster-\(artistId)-\(storefront.code)\(language.map { "-\($0.code)" } ?? "").json"
            }
        let fixtures = TestBed.fixtures
        return (try? Data(contentsOf: fixtures.appendingPathComponent(name)))
            ?? (try! Data(contentsOf: fixtures.appendingPathComponent("empty.json")))
    }
}
