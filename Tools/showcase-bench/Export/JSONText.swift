import Foundation

/// Hand-written JSON for the harness's one-line results: fixed key order, so a diff of two runs reads well,
/// and no Foundation encoder anywhere near a measurement.
enum JSONText {
    static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\(string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    static func number(_ value: Double, decimals: Int) -> String {
        value.isFinite ? String(format: "%.\(decimals)f", value) : "null"
    }

    static func milliseconds(_ nanoseconds: UInt64) -> String {
        number(Double(nanoseconds) / 1e6, decimals: 3)
    }
}
