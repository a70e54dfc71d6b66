/// A compact line form of ``App`` for the cache's apps section.
///
/// Not JSON: a daemon decodes every cached roster around its start, and through `JSONDecoder` a full cache alone
/// would take longer than SPEC §11's 150 ms from exec to ready.
/// This form is one line per app, fields separated by 0x1F, with `\`, newline and 0x1F escaped, and optional
/// fields prefixed `+` (present) or `-` (absent). It is private to the cache: the header's format version
/// guards it, and the raw body stays the authority. A 16th field, the device families as a decimal bit set, was
/// added without a new format version, so an upgrade keeps serving from the cache: a section of 15-field lines
/// (written before it) is a sign to decode that file's raw body instead, which has the real families
/// (``FileCache/loadRoster(listed:sharingWith:)``); the lines themselves read with the platform's default families.
/// A 17th, the primary genre id (optional, `+6014` or `-`), was added the same way: 16-field lines (no genre id)
/// are likewise a sign to decode the raw body, and read without a genre id if it does not decode. The fields after
/// the 17th are the field table's upstream texts (``AppField/upstreamTexts``), one optional field each (`+12+` or
/// `-`) in the table's order, so a field declared there reaches the cache with no change here: a line with fewer
/// (written before a field was declared) is again a sign to decode the raw body, and reads without the missing ones.
import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

extension App {
    fileprivate static let separator = UInt8(0x1F)
    private static let newline = UInt8(ascii: "\n")
    fileprivate static let backslash = UInt8(ascii: "\\")

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
            out.append(separator)
            append(String(app.devices.rawValue), to: &out)
            out.append(separator)
            appendOptional(app.genreId.map { String($0) }, to: &out)
            for field in AppField.upstreamTexts {
                out.append(separator)
                appendOptional(app.upstreamTexts[field.name], to: &out)
            }
        }
        return out
    }

    /// Decodes an apps section; nil if any line does not decode (the cache file is then a miss).
    ///
    /// Works on the bytes directly — no per-field `String` array, no Foundation — because startup and the first
    /// query of each storefront pay for it. An app equal to the same app in `reference` (another storefront's
    /// roster of the same developer, keyed by app id; the store URL up to its storefront segment) shares that app's
    /// record, so 175 storefronts listing it alike hold one copy — compared apart from price, currency and ratings,
    /// which share the reference's listing only when they are equal too; a string equal to the reference's field
    /// is not allocated again either (see ``Roster/sharingStorage(with:)``).
    static func fromCacheRecords(_ bytes: UnsafeRawBufferPointer, sharingWith reference: [Int: App] = [:]) -> [App]? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), !bytes.isEmpty else { return [] }
        // Exactly one slot per line: 175 long-lived arrays with spare capacity would be megabytes of nothing.
        var lines = 1
        var scan = 0
        while scan < bytes.count, let found = memchr(base + scan, Int32(newline), bytes.count - scan) {
            lines += 1
            scan = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
        }
        var apps: [App] = []
        apps.reserveCapacity(lines)
        var fields = FieldRanges()
        var lineStart = 0
        while lineStart <= bytes.count {
            let remaining = bytes.count - lineStart
            let lineEnd =
                memchr(base + lineStart, Int32(newline), remaining).map {
                    base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                } ?? bytes.count
            guard fields.split(base, lineStart, lineEnd),
                let app = app(from: fields, base, sharingWith: reference)
            else { return nil }
            apps.append(app)
            lineStart = lineEnd + 1
        }
        return apps
    }

    /// Whether an apps section is in this release's form (17 fields a line and one per upstream text of the field
    /// table) rather than coming from a release before the device families (15), the genre id (16) or one of the
    /// table's upstream texts. One release writes every line of a section, so the
    /// first line tells; an empty section has nothing to miss. More fields (a newer release's file) count as
    /// current here, so such a file is a miss when its lines do not split, as before.
    static func cacheRecordsAreCurrent(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return true }
        let lineEnd = memchr(base, Int32(newline), bytes.count).map { base.distance(to: UnsafeRawPointer($0)) }
        var separators = 0
        var scan = 0
        let end = lineEnd ?? bytes.count
        while scan < end, let found = memchr(base + scan, Int32(separator), end - scan) {
            separators += 1
            scan = base.distance(to: UnsafeRawPointer(found)) + 1
        }
        return separators >= FieldRanges.most - 1
    }

    /// The 15 to ``most`` field ranges of one line, and whether each holds an escape.
    private struct FieldRanges {
        /// The fields of a line this release writes: 17, then one per upstream text of the field table.
        static let most = 17 + AppField.upstreamTexts.count
        var starts = [Int](repeating: 0, count: most)
        var ends = [Int](repeating: 0, count: most)
        var escaped = [Bool](repeating: false, count: most)
        var count = 0

        /// Splits `start..<end` at 0x1F; false unless there are 15 to ``most`` fields. Separators and newlines
        /// inside text are escaped, so every raw 0x1F is a separator. Both scans use `memchr`: escapes are
        /// rare, so a line without a backslash marks no field as escaped without looking at each byte.
        mutating func split(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
            let lineHasEscape = memchr(base + start, Int32(App.backslash), end - start) != nil
            var count = 0
            var fieldStart = start
            while true {
                guard count < Self.most else { return false }
                let fieldEnd =
                    memchr(base + fieldStart, Int32(App.separator), end - fieldStart).map {
                        base.distance(to: $0.assumingMemoryBound(to: UInt8.self))
                    } ?? end
                starts[count] = fieldStart
                ends[count] = fieldEnd
                escaped[count] =
                    lineHasEscape && memchr(base + fieldStart, Int32(App.backslash), fieldEnd - fieldStart) != nil
                count += 1
                if fieldEnd == end {
                    self.count = count
                    return count >= 15
                }
                fieldStart = fieldEnd + 1
            }
        }
    }

    private static func app(from fields: FieldRanges, _ base: UnsafePointer<UInt8>, sharingWith reference: [Int: App])
        -> App?
    {
        func bytes(_ field: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: base + fields.starts[field], count: fields.ends[field] - fields.starts[field])
        }
        // Stays true while every field read so far equals the reference app's: the app then shares its record
        // (the app's own fields) and, reset between the two, its listing (price, currency, ratings).
        var allSame = true
        func text(_ field: Int, _ shared: String?) -> String {
            let raw = bytes(field)
            if fields.escaped[field] {
                let value = unescape(UnsafeRawBufferPointer(raw))
                if let shared, shared == value { return shared }
                allSame = false
                return value
            }
            if var shared, shared.withUTF8({ sameBytes($0, raw) }) { return shared }
            allSame = false
            return String(decoding: raw, as: UTF8.self)
        }
        /// `.some(nil)` for an absent field (`-`), `.some(text)` for a present one (`+text`), nil if malformed.
        /// `shared` is the reference's value (nil: there is none, or the caller compares the parsed value itself).
        func optional(_ field: Int, _ shared: String??) -> String?? {
            let raw = bytes(field)
            if shared == nil { return untracked(raw, escaped: fields.escaped[field]) }
            guard let marker = raw.first else { return nil }
            if marker == UInt8(ascii: "-") {
                if shared != .some(nil) { allSame = false }
                return raw.count == 1 ? .some(nil) : nil
            }
            guard marker == UInt8(ascii: "+") else { return nil }
            let body = UnsafeBufferPointer(rebasing: raw[1...])
            if fields.escaped[field] {
                let value = unescape(UnsafeRawBufferPointer(body))
                if case .some(.some(let shared)) = shared, shared == value { return .some(shared) }
                allSame = false
                return .some(value)
            }
            if case .some(.some(var text)) = shared, text.withUTF8({ sameBytes($0, body) }) { return .some(text) }
            allSame = false
            return .some(String(decoding: body, as: UTF8.self))
        }
        func untracked(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool) -> String?? {
            guard let marker = raw.first else { return nil }
            if marker == UInt8(ascii: "-") { return raw.count == 1 ? .some(nil) : nil }
            guard marker == UInt8(ascii: "+") else { return nil }
            let body = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: raw[1...]))
            return .some(escaped ? unescape(body) : String(decoding: body, as: UTF8.self))
        }
        func same<Value: Equatable>(_ value: Value, _ reference: Value?) -> Value {
            if reference != value { allSame = false }
            return value
        }

        guard let id = integer(bytes(0)), let artistId = integer(bytes(1)) else { return nil }
        let shared = reference[id]
        let mine = shared?.record.fields
        if shared == nil { allSame = false }
        let floorText = text(7, mine?.minimumOsVersion)
        guard let platform = Platform(rawValue: text(6, mine?.platform.rawValue)),
            let floor = mine?.minimumOsVersion == floorText ? mine?.minimumOS : OSVersion(floorText),
            let version = optional(12, mine.map(\.version))
        else { return nil }
        var devices = DeviceFamilies(supportedDevices: nil, platform: platform)
        if fields.count >= 16 {
            guard let bits = integer(bytes(15)), (1...Int(UInt8.max)).contains(bits) else { return nil }
            devices = DeviceFamilies(rawValue: UInt8(bits))
        }
        var genreId: Int?
        if fields.count >= 17 {
            guard let text = optional(16, nil) else { return nil }
            if let text {
                guard let id = Int(text) else { return nil }
                genreId = id
            }
        }
        if genreId != mine?.genreId { allSame = false }
        // Starts as the reference's dictionary and is written only where a text differs, so an app whose texts
        // equal its sibling's shares that one dictionary (and builds none) whatever else differs.
        var upstreamTexts = mine?.upstreamTexts ?? [:]
        for (offset, field) in AppField.upstreamTexts.enumerated() {
            let theirs = mine.map { $0.upstreamTexts[field.name] }
            var text: String?
            if 17 + offset < fields.count {
                guard let read = optional(17 + offset, theirs) else { return nil }
                text = read
            } else if case .some(.some) = theirs {
                allSame = false
            }
            guard text.map(field.canStore) ?? true else { return nil }
            if upstreamTexts[field.name] != text { upstreamTexts[field.name] = text }
        }
        let name = text(2, mine?.name)
        let bundleId = text(3, mine?.bundleId)
        let genre = text(4, mine?.genre)
        let iconUrl = text(8, mine?.iconUrl)
        // A line holds what a decoded row held, bounded (SPEC §20): one over a bound was planted, and its file is
        // a miss (refetched), like any other unreadable line.
        guard TextBound.fitsName(name), version.map(TextBound.fitsName) ?? true, TextBound.fitsOther(bundleId),
            TextBound.fitsOther(genre), TextBound.fitsOther(floorText)
        else { return nil }
        if devices != mine?.devices { allSame = false }
        // The store URL: the reference's template when it matches up to the segment, else a template of its own.
        var storeUrl: StoreURLTemplate
        var segment: StoreURLTemplate.Segment
        let urlBytes = bytes(9)
        if !fields.escaped[9], let template = mine?.storeUrl, let matched = template.match(urlBytes) {
            (storeUrl, segment) = (template, matched)
        } else {
            allSame = false
            storeUrl = StoreURLTemplate(
                splitting: fields.escaped[9]
                    ? unescape(UnsafeRawBufferPointer(urlBytes)) : String(decoding: urlBytes, as: UTF8.self))
            if let template = mine?.storeUrl, let matched = template.match(storeUrl.text) {
                (storeUrl, segment) = (template, matched)
            } else {
                segment = storeUrl.ownSegment
            }
        }
        let record: AppRecord
        if allSame, let shared, mine?.artistId == artistId, mine?.id == id {
            record = shared.record
        } else {
            record = AppRecord(
                AppFields(
                    id: id, artistId: artistId, name: name, bundleId: bundleId, genre: genre, platform: platform,
                    devices: devices, minimumOsVersion: floorText, minimumOS: floor, iconUrl: iconUrl,
                    storeUrl: storeUrl, version: version, genreId: genreId, upstreamTexts: upstreamTexts))
        }
        // The listing, compared on its own: an app priced in another currency still shares the record above.
        allSame = shared != nil
        let theirs = shared?.listing.fields
        guard let formattedPrice = optional(5, theirs.map(\.formattedPrice)), let price = optional(10, nil),
            let currency = optional(11, theirs.map(\.currency)), let rating = optional(13, nil),
            let ratingCount = optional(14, nil),
            formattedPrice.map(TextBound.fitsOther) ?? true, currency.map(TextBound.fitsOther) ?? true
        else { return nil }
        let prices = same(price.flatMap { Double($0) }, theirs?.price)
        let averageUserRating = same(rating.flatMap { Double($0) }, theirs?.averageUserRating)
        let userRatingCount = same(ratingCount.flatMap { Int($0) }, theirs?.userRatingCount)
        if allSame, let shared { return App(record: record, listing: shared.listing, storeSegment: segment) }
        let listing = ListingRecord(
            ListingFields(
                formattedPrice: formattedPrice, price: prices, currency: currency,
                averageUserRating: averageUserRating, userRatingCount: userRatingCount))
        return App(record: record, listing: listing, storeSegment: segment)
    }

    private static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress else { return true }
        return memcmp(left, right, a.count) == 0
    }

    /// A decimal integer written by `String(Int)`, parsed without building a string.
    private static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            index = 1
        }
        guard index < bytes.count, bytes.count - index <= 18 else { return nil }
        var value = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
            index += 1
        }
        return negative ? -value : value
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
