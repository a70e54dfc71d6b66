/// Apple's artwork URLs name the rendition in their last path segment (`…/AppIcon.png/512x512bb.jpg`), and the image
/// service renders any size asked for there: this is how the export asks for each of `export.icons.sizes`.
public enum IconURL {
    /// `url` with its last path segment `<w>x<h>bb.<ext>` replaced by `<size>x<size>bb.<ext>`; nil when the last
    /// segment is not of that shape (or the URL has a query or fragment), so such an app gets no mirrored icon
    /// rather than a guessed URL.
    public static func sized(_ url: String, to size: Int) -> String? {
        guard size > 0, let slash = renditionSlash(url) else { return nil }
        let segment = url[url.index(after: slash)...]
        let dot = segment.utf8.lastIndex(of: UInt8(ascii: "."))!
        return url[...slash] + "\(size)x\(size)bb" + segment[dot...]
    }

    /// Whether ``sized(_:to:)`` can ask for other sizes of `url`, without building one.
    public static func canBeSized(_ url: String) -> Bool { renditionSlash(url) != nil }

    /// The slash before `url`'s last segment when that segment names a rendition and there is no query or
    /// fragment; looked at as bytes (an export pass asks this for every app and size it renders).
    private static func renditionSlash(_ url: String) -> String.Index? {
        let bytes = url.utf8
        guard !bytes.contains(UInt8(ascii: "?")), !bytes.contains(UInt8(ascii: "#")),
            let slash = bytes.lastIndex(of: UInt8(ascii: "/")), isRendition(url[url.index(after: slash)...])
        else { return nil }
        return slash
    }

    /// `<digits>x<digits>bb.<letters>` with at most five digits each and an extension of 1…5 ASCII letters.
    private static func isRendition(_ segment: Substring) -> Bool {
        let bytes = Array(segment.utf8)
        var index = 0
        func digits() -> Bool {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return (1...5).contains(index - start)
        }
        guard digits(), index < bytes.count, bytes[index] == UInt8(ascii: "x") else { return false }
        index += 1
        guard digits(), bytes[index...].starts(with: Array("bb.".utf8)) else { return false }
        let ext = bytes[(index + 3)...]
        return (1...5).contains(ext.count)
            && ext.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }
    }
}
