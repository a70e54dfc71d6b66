import FoundationEssentials

/// A decoded lookup body: `{"resultCount": N, "results": [...]}`.
///
/// `resultCount` is kept even though `results.count` usually equals it: the missing-entity diagnostic needs
/// to know that upstream said "there is something" while no software row came back.
public struct LookupResponse: Sendable, Hashable {
    /// `resultCount` as sent (falls back to `results.count` when absent).
    public var resultCount: Int
    /// The rows in upstream order: for a roster, the artist row first.
    public var results: [LookupRow]

    /// Creates a response from parts (tests, fakes).
    public init(resultCount: Int, results: [LookupRow]) {
        self.resultCount = resultCount
        self.results = results
    }

    /// Decodes a body. Anything that is not a JSON object with a `results` array — an HTML error page, a
    /// truncated body, an empty 200 — is ``LookupError/malformed(detail:)``, never an empty roster.
    public static func decode(_ body: Data) throws(LookupError) -> LookupResponse {
        guard let first = body.first(where: { !Self.isWhitespace($0) }) else {
            throw .malformed(detail: "empty body")
        }
        guard first == UInt8(ascii: "{") else {
            let head = String(decoding: body.prefix(40), as: UTF8.self)
                .trimmingWhitespaceAndNewlines().replacing("\n", with: " ")
            throw .malformed(detail: "body is not JSON (starts with \"\(head)\")")
        }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: body)
        } catch {
            throw .malformed(detail: "body is not a lookup response (\(Self.summary(of: error)))")
        }
        return LookupResponse(resultCount: wire.resultCount ?? wire.results.count, results: wire.results)
    }

    /// The software rows of a known store; the artist row and unknown kinds are not among them.
    public var softwareRows: [LookupRow] { results.filter { !$0.isArtist && $0.isSoftware } }

    private struct Wire: Decodable {
        var resultCount: Int?
        var results: [LookupRow]
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func summary(of error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): "no \"\(key.stringValue)\" key"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "unexpected type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case .dataCorrupted: "invalid or truncated JSON"
        default: "undecodable"
        }
    }
}
