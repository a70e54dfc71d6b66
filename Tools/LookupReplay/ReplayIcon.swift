import CZlib
import Foundation

/// Invented app icons for the replay to serve at Apple-shaped artwork paths (`…/<w>x<h>bb.<ext>`): small valid
/// PNG files drawn here, deterministically from the path, so the offline demo and the tests show real images
/// without a single byte of Apple's artwork.
///
/// Each icon is a rounded-looking tile: a background colour picked from the artwork's folder (every size of one
/// app shares it) with a lighter square in the middle. Always PNG, whatever extension the path names (the daemon
/// names a mirrored icon by its bytes, not by its URL).
public enum ReplayIcon {
    /// The largest side the replay draws; a larger request is answered 404.
    public static let maximumSide = 1024

    /// The pixel size a path asks for when its last segment is `<w>x<h>bb.<ext>`, else nil.
    public static func requestedSize(path: String) -> (width: Int, height: Int)? {
        guard let segment = path.split(separator: "/").last, let range = segment.range(of: "bb.") else { return nil }
        let dimensions = segment[..<range.lowerBound].split(separator: "x", omittingEmptySubsequences: false)
        guard dimensions.count == 2, let width = Int(dimensions[0]), let height = Int(dimensions[1]),
            dimensions.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        return (width, height)
    }

    /// The icon for `path` (its folder picks the colours) at `width`×`height`; nil when a side is out of 1…1024.
    public static func png(path: String, width: Int, height: Int) -> Data? {
        let folder = path.split(separator: "/").dropLast().joined(separator: "/")
        var seed: UInt32 = 2_166_136_261
        for byte in folder.utf8 { seed = (seed ^ UInt32(byte)) &* 16_777_619 }
        let background = [UInt8(truncatingIfNeeded: seed), UInt8(truncatingIfNeeded: seed >> 8), 0x90]
        return png(width: width, height: height, background: background)
    }

    /// A `width`×`height` RGB PNG of `background` with a lighter square in the middle; nil when a side is out of
    /// 1…``maximumSide``.
    public static func png(width: Int, height: Int, background: [UInt8]) -> Data? {
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height), background.count == 3 else {
            return nil
        }
        let light = background.map { UInt8((Int($0) + 255) / 2) }
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + width * 3))
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                let inside = x >= width / 4 && x < width - width / 4 && y >= height / 4 && y < height - height / 4
                raw += inside ? light : background
            }
        }
        guard let compressed = zlibCompress(raw) else { return nil }
        var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header: [UInt8] = []
        header += bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]  // 8-bit depth, truecolour, deflate, no filter method, no interlace
        file += chunk("IHDR", header) + chunk("IDAT", compressed) + chunk("IEND", [])
        return file
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> Data {
        let typed = Array(type.utf8) + data
        let checksum = typed.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        return Data(bigEndian(UInt32(data.count)) + typed + bigEndian(checksum))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }

    private static func zlibCompress(_ bytes: [UInt8]) -> [UInt8]? {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                compress2(out.baseAddress, &length, input.baseAddress, uLong(input.count), 9)
            }
        }
        guard status == Z_OK else { return nil }
        return Array(output.prefix(Int(length)))
    }
}
