@preconcurrency import Glibc

/// Reads the process environment without Foundation's `ProcessInfo`, keeping startup light.
enum ProcessEnvironment {
    /// Every `NAME=value` pair of `environ`.
    static func current() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let pair = String(cString: entry)
            if let equals = pair.firstIndex(of: "=") {
                result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
