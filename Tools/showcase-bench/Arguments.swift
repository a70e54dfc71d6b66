/// The harness's flag parsing: `--name value` pairs after a subcommand, every flag known in advance, so a
/// typo stops the bench instead of silently measuring the wrong thing.
struct Arguments {
    private var values: [String: String] = [:]
    /// Everything after `--` (a command to run), untouched.
    private(set) var trailing: [String] = []

    init(_ arguments: ArraySlice<String>, known: Set<String>, switches: Set<String> = []) throws(BenchError) {
        var rest = arguments
        while let argument = rest.popFirst() {
            if argument == "--" {
                trailing = Array(rest)
                break
            }
            guard argument.hasPrefix("--") else { throw BenchError("unexpected argument '\(argument)'") }
            let name = String(argument.dropFirst(2))
            if switches.contains(name) {
                values[name] = "true"
                continue
            }
            guard known.contains(name) else { throw BenchError("unknown flag '\(argument)'") }
            guard let value = rest.popFirst() else { throw BenchError("\(argument) needs a value") }
            values[name] = value
        }
    }

    func string(_ name: String) -> String? { values[name] }

    func required(_ name: String) throws(BenchError) -> String {
        guard let value = values[name] else { throw BenchError("--\(name) is required") }
        return value
    }

    func flag(_ name: String) -> Bool { values[name] == "true" }

    func int(_ name: String, default fallback: Int) throws(BenchError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text) else { throw BenchError("--\(name) needs a whole number, not '\(text)'") }
        return value
    }

    func double(_ name: String, default fallback: Double) throws(BenchError) -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text) else { throw BenchError("--\(name) needs a number, not '\(text)'") }
        return value
    }
}
