import Foundation

/// The command line of `showcase-export-sample`.
struct SampleOptions {
    static let usage = """
        usage: showcase-export-sample --fixtures DIR --config FILE --directory DIR
                                     [--overlay FILE] [--storefronts all|CC,CC…] [--no-gzip] [--repeat N]
          Writes the static export of the configuration's hosts from the lookup responses in DIR (Fixtures/lookup),
          as the daemon will, without a daemon or network: for scripts/check-export-web.sh (nginx, Chromium) and
          for measuring the writer. --overlay replaces every host's overlay (what a reload would apply);
          --storefronts all exports every App Store storefront, each from the us response; --repeat runs the
          same export N times and prints each report with its duration.
        """

    var fixtures = ""
    var config = ""
    var directory = ""
    var overlay: String?
    var storefronts: String?
    var gzip = true
    var repeats = 1

    /// Parses `arguments`, or returns the message to print with exit status 64.
    static func parse(_ arguments: [String]) -> Result<SampleOptions, UsageError> {
        var options = SampleOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--fixtures", "--config", "--directory", "--overlay", "--storefronts", "--repeat":
                guard let value = rest.popFirst() else { return .failure(UsageError("\(argument) needs a value")) }
                switch argument {
                case "--fixtures": options.fixtures = value
                case "--config": options.config = value
                case "--directory": options.directory = value
                case "--overlay": options.overlay = value
                case "--storefronts": options.storefronts = value
                default:
                    guard let count = Int(value), (1...1000).contains(count) else {
                        return .failure(UsageError("--repeat needs a number from 1 to 1000"))
                    }
                    options.repeats = count
                }
            case "--no-gzip": options.gzip = false
            default: return .failure(UsageError("unknown argument '\(argument)'"))
            }
        }
        if options.fixtures.isEmpty || options.config.isEmpty || options.directory.isEmpty {
            return .failure(UsageError("--fixtures, --config and --directory are required"))
        }
        return .success(options)
    }
}

/// A command-line mistake, printed with the usage.
struct UsageError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
