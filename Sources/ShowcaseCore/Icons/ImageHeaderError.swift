/// Why some bytes are not an image the export accepts as an icon: each case a sentence for the log, naming what
/// was found, so an operator can tell a CDN's error page from a truncated or resized image.
public enum ImageHeaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes start like none of PNG, JPEG or WebP (an HTML error page, JSON, an SVG, a GIF).
    case notAnImage
    /// The format is known but the header ends before its size (or is inconsistent): a truncated or damaged file.
    case damaged(ImageFormat, detail: String)
    /// A well-formed image of another pixel size than the one asked for.
    case wrongSize(ImageFormat, width: Int, height: Int, wanted: Int)

    /// The refusal as the log shows it.
    public var description: String {
        switch self {
        case .notAnImage: "the body is not a PNG, JPEG or WebP image (by its first bytes)"
        case .damaged(let format, let detail): "the body is a damaged \(format.rawValue.uppercased()) image: \(detail)"
        case .wrongSize(let format, let width, let height, let wanted):
            "the body is a \(width)×\(height) \(format.rawValue.uppercased()) image, not \(wanted)×\(wanted)"
        }
    }
}
