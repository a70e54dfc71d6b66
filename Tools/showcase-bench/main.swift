import Foundation

// showcase-bench: the load generator, the transport floor and the probes behind `make bench`.
// Everything lives in nonisolated types (see BenchCommands); main only hands over argv.
exit(BenchCommands.run(Array(CommandLine.arguments.dropFirst())))
