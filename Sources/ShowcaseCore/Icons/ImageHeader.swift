/// The format and pixel size of an image, read from its header alone (no image library, no decoding): enough to
/// refuse a body that is not the icon asked for before it is stored and served.
///
/// Reading is bounded by the bytes given and never loops without moving forward, so a hostile body costs at most
/// one pass over itself: the JPEG walk skips each segment by its declared length (checked against what is left)
/// and tolerates the fill bytes (`FF FF …`) the standard allows before a marker.
public struct ImageHeader: Sendable, Hashable {
    /// The format, from the magic bytes.
    public var format: ImageFormat
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A header of the given format and size.
    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// The header of `bytes`: PNG (IHDR), JPEG (the first start-of-frame) or WebP (`VP8 `, `VP8L`, `VP8X`).
    public static func parse<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> Result<ImageHeader, ImageHeaderError>
    where Bytes.Element == UInt8, Bytes.Index == Int {
        let reader = ByteReader(bytes: bytes)
        if reader.starts(with: pngSignature) { return parsePNG(reader) }
        if reader.starts(with: [0xFF, 0xD8, 0xFF]) { return parseJPEG(reader) }
        if reader.starts(with: Array("RIFF".utf8)), reader.matches(Array("WEBP".utf8), at: 8) {
            return parseWebP(reader)
        }
        return .failure(.notAnImage)
    }

    /// `bytes` as an icon of `size`×`size` pixels: its header, or why it is refused.
    public static func check<Bytes: RandomAccessCollection>(_ bytes: Bytes, size: Int) -> Result<
        ImageHeader, ImageHeaderError
    > where Bytes.Element == UInt8, Bytes.Index == Int {
        parse(bytes).flatMap { header in
            header.width == size && header.height == size
                ? .success(header)
                : .failure(.wrongSize(header.format, width: header.width, height: header.height, wanted: size))
        }
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static func parsePNG<Bytes>(_ reader: ByteReader<Bytes>) -> Result<ImageHeader, ImageHeaderError> {
        // Signature, then the first chunk, which must be IHDR of length 13: width and height, big-endian, non-zero.
        guard let length = reader.bigEndian32(at: 8), reader.matches(Array("IHDR".utf8), at: 12) else {
            return .failure(.damaged(.png, detail: "no IHDR chunk after the signature"))
        }
        guard length == 13, let width = reader.bigEndian32(at: 16), let height = reader.bigEndian32(at: 20) else {
            return .failure(.damaged(.png, detail: "the IHDR chunk is truncated or not 13 bytes long"))
        }
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            return .failure(.damaged(.png, detail: "IHDR gives a size of \(width)×\(height)"))
        }
        return .success(ImageHeader(format: .png, width: width, height: height))
    }

    private static func parseJPEG<Bytes>(_ reader: ByteReader<Bytes>) -> Result<ImageHeader, ImageHeaderError> {
        var offset = 2
        while true {
            // A marker: one FF, any number of fill FFs, then the marker code.
            guard reader.byte(at: offset) == 0xFF else {
                return .failure(.damaged(.jpeg, detail: "expected a marker at byte \(offset)"))
            }
            while reader.byte(at: offset) == 0xFF { offset += 1 }
            guard let marker = reader.byte(at: offset) else {
                return .failure(.damaged(.jpeg, detail: "it ends before a start-of-frame marker"))
            }
            offset += 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // standalone markers: no length
            case 0xD8, 0xD9, 0xDA, 0x00:
                return .failure(
                    .damaged(.jpeg, detail: "marker FF\(hex(marker)) before any start-of-frame (byte \(offset - 2))"))
            default: break
            }
            guard let length = reader.bigEndian16(at: offset), length >= 2 else {
                return .failure(.damaged(.jpeg, detail: "segment FF\(hex(marker)) has no valid length"))
            }
            guard length <= reader.count - offset else {
                return .failure(.damaged(.jpeg, detail: "segment FF\(hex(marker)) runs past the end"))
            }
            if isStartOfFrame(marker) {
                guard length >= 7, let height = reader.bigEndian16(at: offset + 3),
                    let width = reader.bigEndian16(at: offset + 5)
                else { return .failure(.damaged(.jpeg, detail: "the start-of-frame segment is too short")) }
                guard width > 0, height > 0 else {
                    return .failure(.damaged(.jpeg, detail: "the frame gives a size of \(width)×\(height)"))
                }
                return .success(ImageHeader(format: .jpeg, width: width, height: height))
            }
            offset += length
        }
    }

    /// SOF0…SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    private static func parseWebP<Bytes>(_ reader: ByteReader<Bytes>) -> Result<ImageHeader, ImageHeaderError> {
        func damaged(_ detail: String) -> Result<ImageHeader, ImageHeaderError> {
            .failure(.damaged(.webp, detail: detail))
        }
        if reader.matches(Array("VP8 ".utf8), at: 12) {
            // Lossy: a 3-byte frame tag, the start code 9D 01 2A, then 14-bit width and height (2 bits of scale).
            guard reader.matches([0x9D, 0x01, 0x2A], at: 23), let width = reader.littleEndian16(at: 26),
                let height = reader.littleEndian16(at: 28)
            else { return damaged("the VP8 frame header is missing or truncated") }
            return sized(width & 0x3FFF, height & 0x3FFF, damaged)
        }
        if reader.matches(Array("VP8L".utf8), at: 12) {
            // Lossless: signature 2F, then width-1 and height-1 in 14 bits each, little-endian bit order.
            guard reader.byte(at: 20) == 0x2F, let bits = reader.littleEndian32(at: 21) else {
                return damaged("the VP8L header is missing or truncated")
            }
            return sized((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1, damaged)
        }
        if reader.matches(Array("VP8X".utf8), at: 12) {
            // Extended: 4 bytes of flags, then canvas width-1 and height-1 in 24 bits each, little-endian.
            guard let width = reader.littleEndian24(at: 24), let height = reader.littleEndian24(at: 27) else {
                return damaged("the VP8X header is truncated")
            }
            return sized(width + 1, height + 1, damaged)
        }
        return damaged("the first chunk is none of VP8, VP8L or VP8X")
    }

    private static func sized(
        _ width: Int, _ height: Int, _ damaged: (String) -> Result<ImageHeader, ImageHeaderError>
    ) -> Result<ImageHeader, ImageHeaderError> {
        guard width > 0, height > 0 else { return damaged("the header gives a size of \(width)×\(height)") }
        return .success(ImageHeader(format: .webp, width: width, height: height))
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}

/// Bounds-checked reads of fixed-width integers from a byte collection: every read past the end is nil.
private struct ByteReader<Bytes: RandomAccessCollection> where Bytes.Element == UInt8, Bytes.Index == Int {
    let bytes: Bytes

    var count: Int { bytes.count }

    func byte(at offset: Int) -> UInt8? {
        guard offset >= 0, offset < bytes.count else { return nil }
        return bytes[bytes.startIndex + offset]
    }

    func starts(with prefix: [UInt8]) -> Bool { matches(prefix, at: 0) }

    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, expected.count <= bytes.count - offset else { return false }
        return expected.indices.allSatisfy { bytes[bytes.startIndex + offset + $0] == expected[$0] }
    }

    private func unsigned(at offset: Int, width: Int, bigEndian: Bool) -> Int? {
        guard offset >= 0, width <= bytes.count - offset else { return nil }
        var value = 0
        for index in 0..<width {
            let byte = Int(bytes[bytes.startIndex + offset + (bigEndian ? index : width - 1 - index)])
            value = value << 8 | byte
        }
        return value
    }

    func bigEndian16(at offset: Int) -> Int? { unsigned(at: offset, width: 2, bigEndian: true) }
    func bigEndian32(at offset: Int) -> Int? { unsigned(at: offset, width: 4, bigEndian: true) }
    func littleEndian16(at offset: Int) -> Int? { unsigned(at: offset, width: 2, bigEndian: false) }
    func littleEndian24(at offset: Int) -> Int? { unsigned(at: offset, width: 3, bigEndian: false) }
    func littleEndian32(at offset: Int) -> Int? { unsigned(at: offset, width: 4, bigEndian: false) }
}
