/// A compact line form of ``App`` for the cache's apps section.
///
/// JSONDecoder costs about 2 ms per 200-app roster; 175 storefronts at startup would blow the 150 ms budget.
/// This form is one line per app, fields separated by 0x1F, with `\`, newline and 0x1F escaped, and optional
/// fields prefixed `+` (present) or `-` (absent). It is private to the cache: the header's format version
/// guards it, and the raw body stays the authority.
extension App {
    private static let separator = UInt8(0x1F)
    private static let newline = UInt8(ascii: "\n")
    private static let backslash = UInt8(ascii: "\\")

    /// Encodes apps as the cache's apps section.
    static func cacheRecords(_ apps: [App]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(apps.count * 400)
        for (index, app) in apps.enumerated() {
            if index > 0 { out.append(newline) }
            let fields: [String?] = [
                String(app.id), String(app.artistId), app.name, app.bundleId, app.genre, nil, app.platform.rawValue,
                app.minimumOsVersion, app.iconUrl, app.storeUrl,
            ]
            for (position, field) in fields.enumerated() {
                if position > 0 { out.append(separator) }
                if position == 5 { appendOptional(app.formattedPrice, to: &out) } else { append(field!, to: &out) }
            }
            for optional in [
                app.price.map { String($0) }, app.currency, app.version, app.averageUserRating.map { String($0) },
                app.userRatingCount.map { String($0) },
            ] {
                out.append(separator)
                appendOptional(optional, to: &out)
            }
        }
        return out
    }

    /// Decodes an apps section; nil if any line does not decode (the cache file is then a miss).
    static func fromCacheRecords(_ bytes: UnsafeRawBufferPointer) -> [App]? {
        var apps: [App] = []
        var fields: [String] = []
        fields.reserveCapacity(15)
        var start = 0
        var index = 0
        var escaped = false
        while index <= bytes.count {
            let atEnd = index == bytes.count
            let byte = atEnd ? newline : bytes[index]
            if byte == separator || byte == newline {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                fields.append(escaped ? unescape(slice) : String(decoding: slice, as: UTF8.self))
                escaped = false
                start = index + 1
                if byte == newline {
                    if !(atEnd && bytes.isEmpty) {
                        guard let app = app(from: fields) else { return nil }
                        apps.append(app)
                    }
                    fields.removeAll(keepingCapacity: true)
                }
            } else if byte == backslash {
                escaped = true
                index += 1  // skip the escaped byte
            }
            index += 1
        }
        return apps
    }

    private static func app(from fields: [String]) -> App? {
        guard fields.count == 15, let id = Int(fields[0]), let artistId = Int(fields[1]),
            let platform = Platform(rawValue: fields[6]), OSVersion(fields[7]) != nil,
            let formattedPrice = optional(fields[5]), let price = optional(fields[10]),
            let currency = optional(fields[11]), let version = optional(fields[12]),
            let rating = optional(fields[13]), let ratingCount = optional(fields[14])
        else { return nil }
        return App(
            id: id, artistId: artistId, name: fields[2], bundleId: fields[3], genre: fields[4],
            formattedPrice: formattedPrice, platform: platform, minimumOsVersion: fields[7], iconUrl: fields[8],
            storeUrl: fields[9], price: price.flatMap { Double($0) }, currency: currency, version: version,
            averageUserRating: rating.flatMap { Double($0) }, userRatingCount: ratingCount.flatMap { Int($0) })
    }

    /// `.some(nil)` for an absent field, `.some(text)` for a present one, nil for a malformed one.
    private static func optional(_ field: String) -> String?? {
        if field == "-" { return .some(nil) }
        guard field.hasPrefix("+") else { return nil }
        return .some(String(field.dropFirst()))
    }

    private static func appendOptional(_ text: String?, to out: inout [UInt8]) {
        guard let text else {
            out.append(UInt8(ascii: "-"))
            return
        }
        out.append(UInt8(ascii: "+"))
        append(text, to: &out)
    }

    private static func append(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case backslash: out += [backslash, backslash]
            case newline: out += [backslash, UInt8(ascii: "n")]
            case separator: out += [backslash, UInt8(ascii: "u")]
            default: out.append(byte)
            }
        }
    }

    private static func unescape(_ bytes: UnsafeRawBufferPointer) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == backslash, index + 1 < bytes.count {
                let next = bytes[index + 1]
                out.append(next == UInt8(ascii: "n") ? newline : next == UInt8(ascii: "u") ? separator : next)
                index += 2
            } else {
                out.append(byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
