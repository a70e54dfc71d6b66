/// The content-addressed name of a mirrored icon: `<first 16 hex digits of SHA-256>.<png|jpg|webp>`, the extension
/// from the bytes' own format. Identical bytes — from several apps, storefronts or sizes — get one name and so one
/// file, and a name never changes meaning, which is what lets a web server mark it immutable.
public enum IconName {
    /// The folder under `v1/` the icons live in.
    public static let folder = "icons"

    /// The file name of `bytes`, of `format`.
    public static func name<Bytes: Collection>(of bytes: Bytes, format: ImageFormat) -> String
    where Bytes.Element == UInt8 {
        String(SHA256.hex(bytes).prefix(16)) + "." + format.fileExtension
    }

    /// Its path relative to `v1/` (`icons/0123456789abcdef.jpg`).
    public static func path<Bytes: Collection>(of bytes: Bytes, format: ImageFormat) -> String
    where Bytes.Element == UInt8 {
        folder + "/" + name(of: bytes, format: format)
    }

    /// Whether `path` is an icon path this scheme makes: `icons/`, 16 lowercase hex digits, a known extension. What
    /// the export accepts from its index or a kept document, so nothing else can be named as an icon.
    public static func isIconPath(_ path: String) -> Bool {
        guard path.hasPrefix(folder + "/") else { return false }
        let name = path.dropFirst(folder.count + 1)
        guard let dot = name.firstIndex(of: "."), name.distance(from: name.startIndex, to: dot) == 16 else {
            return false
        }
        let hex = name[..<dot]
        return hex.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
            && ImageFormat(fileExtension: String(name[name.index(after: dot)...])) != nil
    }
}
