/// A failure of the harness itself (bad flag, socket unreachable, daemon never answered), printed as one
/// sentence that says what to do; the bench script stops on it rather than report a wrong figure.
struct BenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
