import CCurl
import Dispatch
import FoundationEssentials

/// The real ``ImageTransport``: the same bounded libcurl GET as the lookup's ``CurlTransport`` (no
/// redirects, http(s) only, decoded bytes counted and cut at the cap while streaming, an exact deadline for the
/// whole transfer, so a server that trickles is cut), asking for images instead of JSON. It shares nothing with the
/// lookup's rate limiter: that budget is the lookup API's, and images come from another service.
struct CurlImageTransport: ImageTransport {
    /// Sent as `User-Agent: showcased/<version>`.
    let userAgent: String

    /// A transport that names `version` in its `User-Agent`.
    init(version: String) { userAgent = "showcased/\(version)" }

    static let accept = "Accept: image/png, image/jpeg, image/webp"

    func get(_ url: String, maxBytes: Int, timeout: Duration) async -> ImageResponse {
        let milliseconds = CurlTransport.milliseconds(timeout)
        let agent = userAgent
        return await withCheckedContinuation { (continuation: CheckedContinuation<ImageResponse, Never>) in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: Self.perform(url: url, userAgent: agent, milliseconds: milliseconds, limit: maxBytes))
            }
        }
    }

    private static func perform(url: String, userAgent: String, milliseconds: Int, limit: Int) -> ImageResponse {
        var result = showcase_http_result()
        defer { showcase_http_free(&result) }
        showcase_http_get(url, userAgent, accept, milliseconds, max(0, limit), &result)
        let error = withUnsafeBytes(of: &result.error) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        if result.overflow != 0 {
            return .refused(.tooLarge, "the body is larger than export.icons.max_bytes (\(limit) bytes)")
        }
        let status = result.status
        if (300..<400).contains(status) {
            return .refused(.redirect, "the server answered HTTP \(status), a redirect, which is never followed")
        }
        if status != 0, !(200..<300).contains(status) {
            return .failed(.httpStatus, "the server answered HTTP \(status)")
        }
        if result.timed_out != 0 { return .failed(.timeout, "the download did not complete within lookup.timeout") }
        if result.bad_encoding != 0 {
            return .refused(.notImage, "the body's Content-Encoding could not be decoded (\(error))")
        }
        guard result.curl_code == 0 else {
            return .failed(.connection, error.isEmpty ? "the connection failed" : error)
        }
        guard status != 0 else { return .refused(.notImage, "the answer was not HTTP") }
        guard let body = result.body, result.body_length > 0 else { return .body(Data()) }
        return .body(Data(bytes: body, count: result.body_length))
    }
}
