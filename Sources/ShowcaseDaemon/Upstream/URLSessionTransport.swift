import Foundation
import ShowcaseCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The real ``LookupTransport`` over `URLSession` (FoundationNetworking on Linux).
///
/// Upstream citizenship is enforced here rather than trusted to callers: an ephemeral session with no cookie
/// storage, no URL cache and no credential store; a `User-Agent` naming showcased and its version; nothing but
/// the lookup's own query. The body is capped at `maxResponseBytes` while it streams, so a hostile or broken
/// endpoint cannot make the daemon buffer an unbounded answer.
public struct URLSessionTransport: LookupTransport {
    /// `lookup.endpoint` (default `https://itunes.apple.com/lookup`).
    public let endpoint: URL
    /// `lookup.timeout` (default 10s): for the whole request, connection to last byte.
    public let timeout: Duration
    /// `lookup.max_response_bytes` (default 8 MiB): a larger body is ``LookupError/malformed(detail:)``.
    public let maxResponseBytes: Int
    /// Sent as `User-Agent: showcased/<version>`.
    public let userAgent: String

    /// Creates a transport. `version` is the daemon's version string.
    public init(endpoint: URL, timeout: Duration = .seconds(10), maxResponseBytes: Int = 8 << 20, version: String) {
        self.endpoint = endpoint
        self.timeout = timeout
        self.maxResponseBytes = maxResponseBytes
        self.userAgent = "showcased/\(version)"
    }

    /// The URLRequest sent for `request`: GET, the UA header, JSON accepted, no cookies, no caching.
    public func urlRequest(for request: LookupRequest) -> URLRequest {
        var urlRequest = URLRequest(
            url: request.url(endpoint: endpoint), cachePolicy: .reloadIgnoringLocalAndRemoteCacheData,
            timeoutInterval: (timeout.seconds + 1).rounded(.up))
        urlRequest.httpMethod = "GET"
        urlRequest.httpShouldHandleCookies = false
        urlRequest.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        return urlRequest
    }

    /// Fetches `request`, mapping every failure to a ``LookupError``.
    public func fetch(_ request: LookupRequest) async throws(LookupError) -> Data {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        // FoundationNetworking truncates timeouts to whole seconds (0.3s fires at once, 2.5s after 2s), so
        // URLSession only gets a rounded-up backstop; the collector enforces the exact deadline itself.
        let backstop = (timeout.seconds + 1).rounded(.up)
        configuration.timeoutIntervalForRequest = backstop
        configuration.timeoutIntervalForResource = backstop
        let collector = BodyCollector(limit: maxResponseBytes, timeout: timeout)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let outcome = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Data, LookupError>, Never>) in
            collector.start(session.dataTask(with: urlRequest(for: request)), continuation: continuation)
        }
        return try outcome.get()
    }
}

/// Accumulates one response body under a byte cap and turns the outcome into a `Result`.
private final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private let timeout: Duration
    private var body = Data()
    private var failure: LookupError?
    private var continuation: CheckedContinuation<Result<Data, LookupError>, Never>?

    init(limit: Int, timeout: Duration) {
        self.limit = limit
        self.timeout = timeout
    }

    func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<Result<Data, LookupError>, Never>) {
        lock.withLock { self.continuation = continuation }
        task.resume()
        let timeout = timeout
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { [weak self, weak task] in
            guard let self else { return }
            let expired = self.lock.withLock { () -> Bool in
                guard self.continuation != nil, self.failure == nil else { return false }
                self.failure = .timeout(timeout)
                return true
            }
            if expired { task?.cancel() }
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let proceed = lock.withLock { () -> Bool in
            if failure == nil { failure = Self.problem(with: response, limit: limit) }
            return failure == nil
        }
        completionHandler(proceed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow = lock.withLock { () -> Bool in
            guard failure == nil else { return false }
            if body.count + data.count > limit {
                failure = .malformed(detail: "body exceeds lookup.max_response_bytes (\(limit) bytes)")
                return true
            }
            body.append(data)
            return false
        }
        if overflow { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (continuation, result) = lock.withLock {
            () -> (CheckedContinuation<Result<Data, LookupError>, Never>?, Result<Data, LookupError>) in
            let pending = self.continuation
            self.continuation = nil
            if let failure { return (pending, .failure(failure)) }
            if let error { return (pending, .failure(Self.map(error, timeout: timeout))) }
            return (pending, .success(body))
        }
        continuation?.resume(returning: result)
    }

    /// The error a response's head already decides: non-2xx statuses and an announced oversize body.
    static func problem(with response: URLResponse, limit: Int) -> LookupError? {
        guard let http = response as? HTTPURLResponse else {
            return .malformed(detail: "the answer was not HTTP")
        }
        switch http.statusCode {
        case 200..<300:
            if response.expectedContentLength > Int64(limit) {
                return .malformed(
                    detail: "body of \(response.expectedContentLength) bytes exceeds "
                        + "lookup.max_response_bytes (\(limit) bytes)")
            }
            return nil
        case 403, 429:
            let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap { RetryAfter.parse($0) }
            return .throttled(status: http.statusCode, retryAfter: retryAfter)
        default:
            return .httpStatus(http.statusCode)
        }
    }

    static func map(_ error: Error, timeout: Duration) -> LookupError {
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain, nsError.code == NSURLErrorTimedOut { return .timeout(timeout) }
        return .connection(detail: nsError.localizedDescription)
    }
}
