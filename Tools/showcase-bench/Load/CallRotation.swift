/// The varied-calls load: `Roster.Get` calls that differ from one to the next, built from a table of
/// dimensions so that adding one is one line in ``standard``.
///
/// Call `k` takes, in every dimension, the value at `k % values.count` (nil leaves the member out). The
/// list is as long as the least common multiple of the dimension sizes, so it holds every combination that
/// rotation reaches exactly once; the first dimension has at least two values and the length is a multiple
/// of its size, so consecutive calls — including the last and the first, where a connection wraps — always
/// differ in it. Each connection starts at its own offset in the list.
struct CallRotation {
    /// One parameter that varies, and the values it takes (nil: the member is omitted).
    struct Dimension {
        var name: String
        var values: [String?]
    }

    /// The calls, JSON text without the NUL.
    let calls: [String]

    /// The rotation for `storefronts` (the first dimension): platform, device, locale and OS version vary with
    /// it. The values keep every reply the same size on the bench's data (iOS apps for iPhone and iPad needing
    /// iOS 16.0), so the
    /// floor's reply of the median size is a fair baseline.
    static func standard(storefronts: [String]) -> [Dimension] {
        [
            Dimension(name: "storefront", values: storefronts),
            Dimension(name: "platform", values: [nil, "ios"]),
            Dimension(name: "device", values: [nil, "iphone", "ipad"]),
            Dimension(name: "locale", values: [nil, "en", "fr"]),
            Dimension(name: "osVersion", values: [nil, "16.0", "17.4", "18.2"]),
        ]
    }

    /// Every call of the rotation over `dimensions`; `method` is the Varlink method called.
    init(dimensions: [Dimension], method: String = "io.showcase.Roster.Get") throws(BenchError) {
        guard let first = dimensions.first, first.values.count >= 2, !first.values.contains(nil) else {
            throw BenchError("the first dimension of a call rotation needs at least two values, none omitted")
        }
        guard dimensions.allSatisfy({ !$0.values.isEmpty }) else {
            throw BenchError("every dimension of a call rotation needs at least one value")
        }
        let length = dimensions.map(\.values.count).reduce(1, Self.leastCommonMultiple)
        calls = (0..<length).map { index in
            let members = dimensions.compactMap { dimension -> String? in
                dimension.values[index % dimension.values.count].map {
                    "\(JSONText.string(dimension.name)):\(JSONText.string($0))"
                }
            }
            return #"{"method":\#(JSONText.string(method)),"parameters":{\#(members.joined(separator: ","))}}"#
        }
    }

    /// The call list read back from a file written by ``text`` (one call per line).
    init(text: String) throws(BenchError) {
        calls = text.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        guard calls.count >= 2 else { throw BenchError("a call rotation file needs at least two calls, one per line") }
    }

    /// One call per line.
    var text: String { calls.joined(separator: "\n") + "\n" }

    /// Where connection `index` of `connections` starts: spread evenly over the list.
    func offset(connection index: Int, of connections: Int) -> Int {
        calls.count * index / max(connections, 1)
    }

    private static func leastCommonMultiple(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return a / x * b
    }
}
