import ShowcaseCore
import Testing

/// An icon is served to every visitor of a page: the export keeps only bodies that are, by their own header, the
/// PNG, JPEG or WebP image of the size it asked for.
@Suite("Image headers: format by magic bytes, pixel size from the header")
struct ImageHeaderTests {
    static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func be16(_ value: Int) -> [UInt8] { [8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
    static func le(_ value: Int, _ width: Int) -> [UInt8] {
        (0..<width).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    static func png(width: Int, height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8) + be32(width)
            + be32(height) + [8, 2, 0, 0, 0] + [0, 0, 0, 0]
    }

    /// SOI, an APP0 segment, fill bytes, a DQT segment, then the start-of-frame `marker`.
    static func jpeg(width: Int, height: Int, marker: UInt8 = 0xC0) -> [UInt8] {
        let app0: [UInt8] = [0xFF, 0xE0] + be16(16) + Array("JFIF".utf8) + [0, 1, 1, 0] + be16(1) + be16(1) + [0, 0]
        let dqt: [UInt8] = [0xFF, 0xFF, 0xFF, 0xDB] + be16(67) + [UInt8](repeating: 1, count: 65)
        let sof: [UInt8] =
            [0xFF, marker] + be16(17) + [8] + be16(height) + be16(width) + [3]
            + [UInt8](
                repeating: 0x11, count: 9)
        return [0xFF, 0xD8] + app0 + dqt + sof + [0xFF, 0xD9]
    }

    static func riff(_ chunk: String, _ payload: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + le(4 + 8 + payload.count, 4) + Array("WEBP".utf8) + Array(chunk.utf8)
            + le(payload.count, 4) + payload
    }

    @Test("reads a PNG's size from IHDR")
    func png() throws {
        #expect(
            try ImageHeader.parse(Self.png(width: 128, height: 96)).get() == .init(format: .png, width: 128, height: 96)
        )
    }

    @Test("walks JPEG markers, fill bytes included, to the first start-of-frame (baseline and progressive)")
    func jpeg() throws {
        #expect(
            try ImageHeader.parse(Self.jpeg(width: 256, height: 256)).get()
                == .init(format: .jpeg, width: 256, height: 256))
        #expect(try ImageHeader.parse(Self.jpeg(width: 300, height: 200, marker: 0xC2)).get().width == 300)
    }

    @Test("does not take DHT, JPG or DAC markers for a start-of-frame")
    func jpegLookalikes() throws {
        for marker: UInt8 in [0xC4, 0xC8, 0xCC] {
            let result = ImageHeader.parse(Self.jpeg(width: 64, height: 64, marker: marker))
            guard case .failure(.damaged(.jpeg, _)) = result else {
                Issue.record("marker \(marker) gave \(result)")
                continue
            }
        }
    }

    @Test("refuses a JPEG segment whose length runs past the end, or a scan before any frame")
    func jpegBounds() throws {
        let cut = Array(Self.jpeg(width: 64, height: 64).prefix(30))
        guard case .failure(.damaged(.jpeg, _)) = ImageHeader.parse(cut) else {
            Issue.record("a truncated JPEG was accepted")
            return
        }
        let scanFirst: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDA] + Self.be16(8) + [0, 0, 0, 0, 0, 0]
        guard case .failure(.damaged(.jpeg, let detail)) = ImageHeader.parse(scanFirst) else {
            Issue.record("a scan before the frame was accepted")
            return
        }
        #expect(detail.contains("FFDA"))
    }

    @Test("reads WebP sizes from VP8, VP8L and VP8X")
    func webp() throws {
        let lossy = Self.riff("VP8 ", [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A] + Self.le(128, 2) + Self.le(128, 2))
        #expect(try ImageHeader.parse(lossy).get() == .init(format: .webp, width: 128, height: 128))
        let bits = (255) | (127 << 14)
        let lossless = Self.riff("VP8L", [0x2F] + Self.le(bits, 4))
        #expect(try ImageHeader.parse(lossless).get() == .init(format: .webp, width: 256, height: 128))
        let extended = Self.riff("VP8X", [0x10, 0, 0, 0] + Self.le(511, 3) + Self.le(511, 3))
        #expect(try ImageHeader.parse(extended).get() == .init(format: .webp, width: 512, height: 512))
    }

    @Test("refuses bodies that are not images: HTML, JSON, GIF, SVG, empty")
    func notImages() throws {
        for body in ["<!doctype html><p>Not found", #"{"error":1}"#, "GIF89a\u{1}\u{0}\u{1}\u{0}", "<svg/>", ""] {
            #expect(ImageHeader.parse(Array(body.utf8)) == .failure(.notAnImage), "\(body)")
        }
    }

    @Test("refuses a truncated PNG and a zero-sized one")
    func damagedPNG() throws {
        guard case .failure(.damaged(.png, _)) = ImageHeader.parse(Array(Self.png(width: 1, height: 1).prefix(20))),
            case .failure(.damaged(.png, _)) = ImageHeader.parse(Self.png(width: 0, height: 10))
        else {
            Issue.record("a damaged PNG was accepted")
            return
        }
    }

    @Test("an icon of another size than asked for is refused, naming both")
    func wrongSize() throws {
        let result = ImageHeader.check(Self.png(width: 100, height: 100), size: 128)
        #expect(result == .failure(.wrongSize(.png, width: 100, height: 100, wanted: 128)))
        if case .failure(let error) = result { #expect(error.description.contains("100×100")) }
        #expect(ImageHeader.check(Self.png(width: 128, height: 64), size: 128).map(\.width) != .success(128))
        #expect((try? ImageHeader.check(Self.png(width: 128, height: 128), size: 128).get()) != nil)
    }

    @Test("every prefix of a valid header is refused, never trapping")
    func prefixes() throws {
        // A PNG's size is complete after 24 bytes (IHDR's width and height); a JPEG's when its frame segment ends,
        // 2 bytes before its end (EOI). Every shorter prefix is incomplete.
        let jpeg = Self.jpeg(width: 9, height: 9)
        for (image, needed) in [(Self.png(width: 9, height: 9), 24), (jpeg, jpeg.count - 2)] {
            for length in 0..<needed {
                if case .success(let header) = ImageHeader.parse(Array(image.prefix(length))) {
                    Issue.record("a \(length)-byte prefix parsed as \(header)")
                }
            }
            #expect((try? ImageHeader.parse(Array(image.prefix(needed))).get()) != nil)
        }
    }
}

/// The size comes from Apple's artwork URL: only its last segment changes, and only when it has the rendition shape.
@Suite("Icon URLs and names")
struct IconURLTests {
    static let base = "https://is1-ssl.mzstatic.com/image/thumb/Purple211/v4/AppIcon.png/"

    @Test("replaces the last segment <w>x<h>bb.<ext> with the size asked for")
    func sized() throws {
        #expect(IconURL.sized(Self.base + "512x512bb.jpg", to: 128) == Self.base + "128x128bb.jpg")
        #expect(IconURL.sized(Self.base + "100x100bb.png", to: 256) == Self.base + "256x256bb.png")
    }

    @Test("a URL whose last segment has another shape gets no icon")
    func otherShapes() throws {
        for url in [
            Self.base + "icon.jpg", Self.base + "512x512.jpg", Self.base + "512x512bb", Self.base + "x512bb.jpg",
            Self.base + "512x512bb.jpg?w=1", Self.base + "512x512bb.jpg#x", Self.base, "512x512bb.jpg",
            Self.base + "1234567x1bb.jpg", Self.base + "512x512bb.j-g",
        ] {
            #expect(IconURL.sized(url, to: 128) == nil, "\(url)")
            #expect(!IconURL.canBeSized(url), "\(url)")
        }
        #expect(IconURL.canBeSized(Self.base + "512x512bb.jpg"))
    }

    @Test("names are the first 16 hex digits of SHA-256 and the format's extension")
    func names() throws {
        // SHA-256("abc") = ba7816bf8f01cfea…
        #expect(IconName.name(of: Array("abc".utf8), format: .jpeg) == "ba7816bf8f01cfea.jpg")
        #expect(IconName.path(of: Array("abc".utf8), format: .webp) == "icons/ba7816bf8f01cfea.webp")
        #expect(IconName.isIconPath("icons/ba7816bf8f01cfea.png"))
        for path in [
            "icons/BA7816BF8F01CFEA.png", "icons/ba7816bf8f01cfe.png", "icons/ba7816bf8f01cfea.gif",
            "x/ba7816bf8f01cfea.png", "icons/../ba7816bf8f01cfea.png",
        ] {
            #expect(!IconName.isIconPath(path), "\(path)")
        }
    }
}
