import Foundation
import LookupReplay

// lookup-replay --fixtures DIR [--port N] [--serve-icons]: serves Fixtures/lookup on 127.0.0.1 for the demo and
// for out-of-process tests. With --port 0 (the default) the chosen port is the first line on stdout.

let usage = """
    usage: lookup-replay --fixtures DIR [--port N] [--serve-icons]
      Serves lookup responses from DIR on 127.0.0.1:N (0 = any free port, printed as the first line).
      Paths ending in <w>x<h>bb.<ext> get an invented PNG icon of that size; with --serve-icons the fixtures'
      artwork URLs are rewritten to http://127.0.0.1:N/ (allow it in lookup.artwork_hosts) to mirror them offline.
      Control endpoints under /_replay/ inject faults, read the request log and switch to a revision of the
      fixtures (POST /_replay/override?dir=DIR: DIR's files answer for their names; see LookupReplayServer+Control).
    """
var fixtures: String?
var port = 0
var serveIcons = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--fixtures": fixtures = arguments.popFirst()
    case "--port":
        guard let value = arguments.popFirst().flatMap(Int.init), (0...65535).contains(value) else {
            FileHandle.standardError.write(Data("lookup-replay: --port needs a number 0–65535\n".utf8))
            exit(64)
        }
        port = value
    case "--serve-icons": serveIcons = true
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        FileHandle.standardError.write(Data("lookup-replay: unknown argument '\(argument)'\n\(usage)\n".utf8))
        exit(64)
    }
}
guard let fixtures else {
    FileHandle.standardError.write(Data("lookup-replay: --fixtures DIR is required\n\(usage)\n".utf8))
    exit(64)
}
do {
    let server = try LookupReplayServer(
        fixtures: URL(fileURLWithPath: fixtures, isDirectory: true), port: port, artworkHere: serveIcons)
    // Unbuffered, so a parent reading the pipe sees the port at once.
    FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
    withExtendedLifetime(server) {
        while true { sleep(3600) }
    }
} catch {
    FileHandle.standardError.write(Data("lookup-replay: \(error.description)\n".utf8))
    exit(71)
}
