/// An absolute `scheme://host[:port]/…` URL split by hand into the byte ranges the URL rules compare.
///
/// Foundation's parsers are lenient in ways an attacker can use: `URLComponents` accepts spaces and controls that a
/// browser strips (`java\tscript:`), and what counts as the host differs between parsers when userinfo, backslashes
/// or a second `@` are involved. This one accepts only a narrow, unambiguous shape and refuses everything else, so
/// the host it reads is the host every browser would contact:
///
/// - every byte printable ASCII from RFC 3986's sets (letters, digits, `-._~:/?#[]@!$&'()*+,;=%`): no whitespace, no
///   control character, no `\`, `"`, `<`, `>`, `^`, `` ` ``, `{`, `|`, `}`, nothing outside ASCII;
/// - a scheme, then `//`, then an authority without userinfo (`@`) or IP-literal brackets;
/// - a host of non-empty DNS labels (`[A-Za-z0-9-]`, at most 63 bytes each, 253 in all), an optional port
///   `1…65535` without leading zeros;
/// - then a path that starts with `/` and has no `.` or `..` segment (`%2e` counts as a dot), then anything
///   allowed.
///
/// It works on the URL's UTF-8 bytes without allocating: the cache decoder checks every app of every storefront
/// (thousands at startup), so the ranges index into the buffer ``parse(_:)`` read.
struct StrictURL: Sendable, Equatable {
    /// The scheme's bytes (`https`), as written.
    let scheme: Range<Int>
    /// The host's bytes (`is1-ssl.mzstatic.com`), as written.
    let host: Range<Int>
    /// The port as written, nil when none is.
    let port: Int?
    /// From the `/` that ends the authority to the end: path, query and fragment.
    let rest: Range<Int>

    /// Why a text is not a ``StrictURL``.
    enum Failure: Error, Sendable, Equatable {
        /// A space, a control character, a byte outside ASCII or a character RFC 3986 never allows.
        case forbiddenCharacter
        /// No `scheme:` at the start.
        case noScheme
        /// The scheme is not followed by `//` and an authority.
        case noAuthority
        /// `user@` or `user:password@` before the host.
        case userinfo
        /// An empty, bracketed or otherwise unreadable host.
        case badHost
        /// A port that is empty, not a number, has leading zeros or is outside 1…65535.
        case badPort
        /// Nothing, or a query or fragment, right after the authority: no path starting with `/`.
        case noPath
        /// A `.` or `..` path segment, which a browser resolves away.
        case dotSegment
    }

    /// `body` called with `text`'s UTF-8 bytes and their parse.
    static func withParsed<Result>(
        _ text: String, _ body: (UnsafeBufferPointer<UInt8>, Swift.Result<StrictURL, Failure>) -> Result
    ) -> Result {
        var text = text
        return text.withUTF8 { body($0, parse($0)) }
    }

    /// The parts of `bytes`, or why it has none.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Swift.Result<StrictURL, Failure> {
        let count = bytes.count
        for byte in bytes where !isAllowed(byte) { return .failure(.forbiddenCharacter) }
        // scheme ":" "//"
        guard count > 0, isLetter(bytes[0]) else { return .failure(.noScheme) }
        var index = 1
        while index < count, isLetter(bytes[index]) || isDigit(bytes[index]) || isSchemePunctuation(bytes[index]) {
            index += 1
        }
        guard index < count, bytes[index] == colon else { return .failure(.noScheme) }
        let scheme = 0..<index
        guard index + 2 < count, bytes[index + 1] == slash, bytes[index + 2] == slash else {
            return .failure(.noAuthority)
        }
        // authority: host [":" port], up to "/", "?", "#" or the end
        let hostStart = index + 3
        index = hostStart
        while index < count, bytes[index] != slash, bytes[index] != question, bytes[index] != hash {
            if bytes[index] == at { return .failure(.userinfo) }
            index += 1
        }
        let authorityEnd = index
        var hostEnd = authorityEnd
        var port: Int?
        if let portColon = (hostStart..<authorityEnd).first(where: { bytes[$0] == colon }) {
            hostEnd = portColon
            let digits = (portColon + 1)..<authorityEnd
            guard (1...5).contains(digits.count), bytes[digits.lowerBound] != zero,
                digits.allSatisfy({ isDigit(bytes[$0]) })
            else { return .failure(.badPort) }
            let value = digits.reduce(0) { $0 * 10 + Int(bytes[$1] - zero) }
            guard value <= 65535 else { return .failure(.badPort) }
            port = value
        }
        guard isHost(bytes, hostStart..<hostEnd) else { return .failure(.badHost) }
        guard authorityEnd < count, bytes[authorityEnd] == slash else { return .failure(.noPath) }
        // path segments, up to "?", "#" or the end
        var segmentStart = authorityEnd + 1
        index = segmentStart
        while true {
            let atEnd = index == count || bytes[index] == question || bytes[index] == hash
            if atEnd || bytes[index] == slash {
                if isDotSegment(bytes, segmentStart..<index) { return .failure(.dotSegment) }
                if atEnd { break }
                segmentStart = index + 1
            }
            index += 1
        }
        return .success(StrictURL(scheme: scheme, host: hostStart..<hostEnd, port: port, rest: authorityEnd..<count))
    }

    /// True when the bytes of `range` equal `lowercase` ignoring ASCII case (for a scheme or a host, whose bytes
    /// ``parse(_:)`` checked are letters, digits and `+-.`: folding with 0x20 changes only the letters).
    static func equalFolded(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ lowercase: [UInt8]) -> Bool {
        guard range.count == lowercase.count else { return false }
        var other = 0
        for index in range {
            guard bytes[index] | 0x20 == lowercase[other] else { return false }
            other += 1
        }
        return true
    }

    /// True when the bytes of `range` start with `prefix`, byte for byte.
    static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ prefix: [UInt8]) -> Bool {
        guard range.count >= prefix.count else { return false }
        var index = range.lowerBound
        for byte in prefix {
            guard bytes[index] == byte else { return false }
            index += 1
        }
        return true
    }

    /// Non-empty labels of letters, digits and `-`, at most 63 bytes each and 253 in all.
    private static func isHost(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty, range.count <= 253 else { return false }
        var label = 0
        for index in range {
            let byte = bytes[index]
            if byte == dot {
                guard label > 0 else { return false }
                label = 0
            } else {
                guard isLetter(byte) || isDigit(byte) || byte == hyphen, label < 63 else { return false }
                label += 1
            }
        }
        return label > 0
    }

    /// True for `.` and `..`, each dot possibly written `%2e` or `%2E` (browsers resolve those too).
    private static func isDotSegment(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var dots = 0
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == dot {
                index += 1
            } else if bytes[index] == percent, index + 2 < range.upperBound, bytes[index + 1] == two,
                bytes[index + 2] | 0x20 == lowercaseE
            {
                index += 3
            } else {
                return false
            }
            dots += 1
        }
        return (1...2).contains(dots)
    }

    private static var colon: UInt8 { UInt8(ascii: ":") }
    private static var slash: UInt8 { UInt8(ascii: "/") }
    private static var question: UInt8 { UInt8(ascii: "?") }
    private static var hash: UInt8 { UInt8(ascii: "#") }
    private static var at: UInt8 { UInt8(ascii: "@") }
    private static var dot: UInt8 { UInt8(ascii: ".") }
    private static var hyphen: UInt8 { UInt8(ascii: "-") }
    private static var percent: UInt8 { UInt8(ascii: "%") }
    private static var zero: UInt8 { UInt8(ascii: "0") }
    private static var two: UInt8 { UInt8(ascii: "2") }
    private static var lowercaseE: UInt8 { UInt8(ascii: "e") }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte | 0x20) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isSchemePunctuation(_ byte: UInt8) -> Bool { byte == 0x2B || byte == 0x2D || byte == 0x2E }

    /// RFC 3986's unreserved and reserved characters and `%`, as a bit per ASCII byte.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        byte < 64 ? allowedLow & (1 << UInt64(byte)) != 0 : byte < 128 && allowedHigh & (1 << UInt64(byte - 64)) != 0
    }

    /// The bits of `0123456789-.:/?#!$&'()*+,;=%` (bytes 0…63).
    private static var allowedLow: UInt64 { 0xafff_fffa_0000_0000 }
    /// The bits of `@A…Z[]_a…z~` (bytes 64…127).
    private static var allowedHigh: UInt64 { 0x47ff_fffe_afff_ffff }
}
