/// The `export.icons:` section: which sizes of each app's icon the export mirrors into `v1/icons/` (SPEC §16),
/// so a page served from the tree never sends its visitors to Apple's image CDN.
public struct IconSettings: Sendable, Equatable {
    /// `export.icons.sizes` — list of square pixel sizes, each 16...1024, stored sorted without repeats; an empty
    /// list turns mirroring off (the section then reads as absent).
    public var sizes: [Int]
    /// `export.icons.max_bytes` — size like `1MiB`, default `1MiB`: a larger image is refused while it streams.
    public var maxBytes: Int

    /// The smallest and largest size accepted in `export.icons.sizes`.
    public static let sizeRange = 16...1024
    /// The default `export.icons.max_bytes`.
    public static let defaultMaxBytes = 1 << 20

    /// Icon settings with `sizes` as given (sorted and deduplicated) and the documented default byte cap.
    public init(sizes: [Int], maxBytes: Int = IconSettings.defaultMaxBytes) {
        self.sizes = Array(Set(sizes)).sorted()
        self.maxBytes = maxBytes
    }

    static let keys = ["sizes", "max_bytes"]

    /// Reads the section; nil when mirroring is off (`sizes: []` or no sizes) or after reporting a bad value.
    init?(reading node: YAMLNode, diagnostics: inout ConfigDiagnostics) {
        guard let fields = diagnostics.fields(of: node, in: "export.icons", known: Self.keys) else { return nil }
        var maxBytes = Self.defaultMaxBytes
        if let value = fields["max_bytes"], let size = diagnostics.byteSize(value, "export.icons.max_bytes") {
            maxBytes = size
        }
        guard let value = fields["sizes"],
            let items = diagnostics.sequence(
                value, "export.icons.sizes", expected: "a list of pixel sizes like [128, 256]")
        else { return nil }
        var sizes: [Int] = []
        for item in items {
            guard let text = item.scalar, !item.isNull, let size = Int(text), Self.sizeRange.contains(size) else {
                diagnostics.report(
                    .invalidValue, at: item,
                    "each of 'export.icons.sizes' must be a pixel size from 16 to 1024, like 128, found "
                        + item.kindDescription)
                return nil
            }
            sizes.append(size)
        }
        guard !sizes.isEmpty else { return nil }
        self.init(sizes: sizes, maxBytes: maxBytes)
    }
}
