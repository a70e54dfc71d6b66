import Foundation
import ShowcaseDaemon

// Everything lives in the ShowcaseDaemon library (closures created here would be @MainActor).
exit(await Daemon.main(arguments: Array(CommandLine.arguments.dropFirst())))
