/// Which mirrored icon sizes a row shows at a display size: the smallest size at least as large (else the
/// largest there is, so a row with mirrored icons never falls back to Apple's CDN), and for `srcset` the
/// smallest at least twice as large when that is another file.
struct IconChoice: Equatable {
    /// The size for 1× screens.
    var standard: Int
    /// The size for 2× screens, when one fits and differs from ``standard``.
    var retina: Int?

    /// The choice among `sizes` (pixel sizes, any order) for a `display`-pixel image; nil when there are none.
    init?(sizes: some Collection<Int>, display: Int) {
        let sorted = sizes.filter { $0 > 0 }.sorted()
        guard let largest = sorted.last else { return nil }
        standard = sorted.first { $0 >= display } ?? largest
        let doubled = display.multipliedReportingOverflow(by: 2)
        let retina = doubled.overflow ? nil : sorted.first { $0 >= doubled.partialValue }
        self.retina = retina == standard ? nil : retina
    }
}
