@preconcurrency import Glibc
import Varlink

/// `varlink-certify [--client] [--varlink=unix:PATH | --varlink unix:PATH | PATH]`: serves
/// `org.varlink.certification` until SIGINT or SIGTERM, or with `--client` runs the
/// certification sequence against a server there and exits 0 only if it passes.
enum CertifyCommand {
    static let usage = "usage: varlink-certify [--client] --varlink=unix:PATH (or: varlink-certify [--client] PATH)"

    static func socketPath(from arguments: [String]) -> String? {
        var address: String?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--varlink=") {
                address = String(argument.dropFirst("--varlink=".count))
            } else if argument == "--varlink" || argument == "-varlink", index + 1 < arguments.count {
                index += 1
                address = arguments[index]
            } else if argument == "--client" || argument == "-client" {
                // handled by run(_:)
            } else if !argument.hasPrefix("-") {
                address = argument
            } else {
                return nil
            }
            index += 1
        }
        guard let address, !address.isEmpty else { return nil }
        return address.hasPrefix("unix:") ? String(address.dropFirst(5)) : address
    }

    static func run(_ arguments: [String]) -> Int32 {
        setvbuf(stdout, nil, _IOLBF, 0)
        setvbuf(stderr, nil, _IOLBF, 0)
        guard let path = socketPath(from: arguments) else {
            fputs(usage + "\n", stderr)
            return 2
        }
        if arguments.contains("--client") || arguments.contains("-client") {
            do {
                try CertificationClient.run(path: path) { print($0) }
                print("Certification passed")
                return 0
            } catch {
                fputs("varlink-certify: certification failed: \(error)\n", stderr)
                return 1
            }
        }
        // Block the stop signals before any thread starts, then wait for them synchronously.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        do {
            var service = VarlinkService(
                vendor: "showcase", product: "varlink-certify", version: "1", url: "https://varlink.org")
            try service.add(try CertificationService().makeInterface())
            let server = try VarlinkServer(service: service)
            try server.bind(path: path, mode: 0o600)
            try server.start()
            print("Listening on unix:\(path)")
            var received: Int32 = 0
            sigwait(&signals, &received)
            server.shutdown(gracePeriod: .seconds(2))
            return 0
        } catch {
            fputs("varlink-certify: \(error)\n", stderr)
            return 1
        }
    }
}
