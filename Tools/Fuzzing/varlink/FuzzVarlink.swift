// libFuzzer target: the JSON parser and Varlink framing (built only by `make fuzz`).
import Foundation
import FuzzingDriver
import Varlink

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// One real server, with an echo method, that every input's connection is handed to.
private let server: VarlinkServer = {
    var service = VarlinkService(vendor: "fuzz", product: "fuzz", version: "0", url: "https://example.invalid")
    var interface = try! VarlinkInterface(
        idl: "interface org.example.fuzz\nmethod Echo(value: ?object) -> (value: ?object)\n")
    try! interface.handle("Echo") { call, responder in responder.reply(.object(call.parameters)) }
    try! service.add(interface)
    let server = try! VarlinkServer(service: service)
    try! server.start()
    return server
}()

/// Any bytes: parsed as one JSON value (which, when it parses, must serialize and parse back to itself), then
/// sent as a client's whole stream to a real Varlink server over a socketpair. The server must answer or close
/// the connection, never crash or hang (libFuzzer's -timeout catches a hang).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVarlink(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    if let value = try? JSONValue(parsing: bytes) {
        let text = value.serialized()
        let again = try? JSONValue(parsing: text)
        precondition(again == value, "JSON did not round-trip: \(String(decoding: text, as: UTF8.self))")
    }
    var fds: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
        return 0
    }
    server.serve(connectedDescriptor: fds[0])
    let client = fds[1]
    defer { close(client) }
    var offset = 0
    while offset < bytes.count {
        let sent = bytes.withUnsafeBytes {
            send(client, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
        }
        if sent <= 0 { break }
        offset += sent
    }
    shutdown(client, Int32(SHUT_WR))
    var buffer = [UInt8](repeating: 0, count: 65536)
    var pollfd = Glibc.pollfd(fd: client, events: Int16(POLLIN), revents: 0)
    // Read what the server answers until it closes: after the client's end of stream it must close (at once
    // for a broken or partial message, after answering for whole calls).
    while true {
        let ready = poll(&pollfd, 1, 10_000)
        precondition(ready != 0, "the server neither answered nor closed within 10 s of the client's end of stream")
        guard ready > 0 else { break }
        let got = read(client, &buffer, buffer.count)
        if got <= 0 { break }
    }
    return 0
}

/// The entry point: libFuzzer's driver over `fuzzVarlink` (see `FuzzingDriver`).
@_cdecl("fuzz_varlink_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzingDriver.run(argc, argv, fuzzVarlink)
}
