import ShowcaseDaemon

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

// Everything lives in the ShowcaseDaemon library (closures created here would be @MainActor).
exit(await Daemon.main(arguments: Array(CommandLine.arguments.dropFirst())))
