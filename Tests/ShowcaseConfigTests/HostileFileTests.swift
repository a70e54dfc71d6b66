import Foundation
import ShowcaseConfig
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `check-config` on `path` with a bound, so a hang fails the test instead of stalling the run.
private func checkConfigBounded(_ path: String) throws -> (status: Int32, stderr: String, finished: Bool) {
    let process = Process()
    process.executableURL = showcasectl
    process.arguments = ["check-config", path]
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    while process.isRunning, Date() < deadline { usleep(20_000) }
    let finished = !process.isRunning
    if !finished {
        process.terminate()
        process.waitUntilExit()
    }
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (process.terminationStatus, stderr, finished)
}

@Suite("Configuration files that are not regular files")
struct HostileFileTests {
    @Test("a configuration that is a FIFO is an error naming the path, not a hang")
    func fifoConfiguration() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("showcase.yaml")
        #expect(mkfifo(path, 0o600) == 0)
        #expect {
            try ConfigLoader.load(path: path, defaults: testDefaults)
        } throws: { error in
            "\(error)".contains(path) && "\(error)".contains("FIFO")
        }
        let result = try checkConfigBounded(path)
        #expect(result.finished, "check-config on a FIFO did not answer within 20 s")
        #expect(result.status == 78)
        #expect(result.stderr.contains(path))
        #expect(result.stderr.contains("FIFO"))
    }

    @Test("an overlay that is a FIFO or a device is an error at its line, not a hang")
    func fifoOverlay() throws {
        let directory = try TemporaryDirectory(files: ["showcase.yaml": minimalHosts + "overlay: o.yaml\n"])
        #expect(mkfifo(directory.file("o.yaml"), 0o600) == 0)
        do {
            _ = try ConfigLoader.load(path: directory.file("showcase.yaml"), defaults: testDefaults)
            Issue.record("a FIFO overlay loaded")
        } catch {
            #expect(error.errors.contains { $0.message.contains("o.yaml") && $0.message.contains("FIFO") })
        }
        let device = try errors(minimalHosts + "overlay: /dev/zero\n")
        #expect(device.contains { $0.message.contains("/dev/zero") && $0.message.contains("character device") })
    }
}
