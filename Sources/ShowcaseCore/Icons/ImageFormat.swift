/// The image formats an exported icon may have, told apart by their magic bytes (never by a URL's extension or a
/// server's `Content-Type`, which an upstream controls).
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// PNG: `89 50 4E 47 0D 0A 1A 0A`, then the IHDR chunk.
    case png
    /// JPEG: `FF D8`, then marker segments up to a start-of-frame.
    case jpeg
    /// WebP: a RIFF container of form type `WEBP` (lossy `VP8 `, lossless `VP8L` or extended `VP8X`).
    case webp

    /// The file extension the export names an icon of this format with (`png`, `jpg`, `webp`).
    public var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        case .webp: "webp"
        }
    }

    /// The format a file extension names (`png`, `jpg`, `webp`), or nil.
    public init?(fileExtension: String) {
        guard let format = Self.allCases.first(where: { $0.fileExtension == fileExtension }) else { return nil }
        self = format
    }

    /// The media type a web server sends it with.
    public var mediaType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        }
    }
}
