import Foundation
import ShowcaseDaemon

// Everything lives in the ShowcaseDaemon library (Dispatch closures created here would be @MainActor).
exit(Daemon.main(arguments: Array(CommandLine.arguments.dropFirst())))
