import Foundation

/// A dotted OS version ("9.0", "10.13", "18.0.1") compared numerically, component by component.
///
/// Floors arrive as strings; comparing them as strings puts "18.0" before "9.0" and hides every modern app.
/// Missing components count as zero, so "18" == "18.0" == "18.0.0".
public struct OSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Numeric components, trailing zeros removed so equal versions compare and hash equal.
    public let components: [Int]
    /// The text as given, for display.
    public let text: String

    /// Parses one to four dot-separated non-negative integers; anything else (empty, "abc", "1..2", "-1") is nil.
    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 6, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(part)
            else { return nil }
            numbers.append(number)
        }
        while numbers.count > 1, numbers.last == 0 { numbers.removeLast() }
        self.components = numbers
        self.text = trimmed
    }

    /// The text as given.
    public var description: String { text }

    /// Numeric per-component order ("9.0" < "10.13" < "18.0").
    public static func < (lhs: OSVersion, rhs: OSVersion) -> Bool {
        let count = max(lhs.components.count, rhs.components.count)
        for index in 0..<count {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    /// Equal when numerically equal ("18" == "18.0").
    public static func == (lhs: OSVersion, rhs: OSVersion) -> Bool { lhs.components == rhs.components }

    /// Hashes the normalized components, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(components) }
}
