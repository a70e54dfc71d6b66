import Foundation

/// Reload under load: while the load generator keeps every connection busy, asks `io.showcase.Admin.Reload`
/// and times the request to the reply that names the new generation. Every call of the load must still
/// succeed: a reload that drops, delays into a timeout or errors a single reader fails the row.
enum ReloadProbe {
    struct Outcome {
        var load: LoadResult
        var reloadMilliseconds: Double
        var generationBefore: Int
        var generationAfter: Int
        /// Whether a call made right after the reload showed `expectAfter` (nil when not asked).
        var appliedAfterReload: Bool?
        var reloadError: String?
    }

    static func run(
        load options: LoadOptions, reloadAtSeconds: Double, checkCall: String?, expectAfter: String?
    ) throws(BenchError) -> Outcome {
        let generationBefore = try generation(
            ofStatus: VarlinkProbe.call(socketPath: options.socketPath, #"{"method":"io.showcase.Admin.Status"}"#))
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Thread {
            box.result = Result { () throws(BenchError) -> LoadResult in try LoadGenerator.run(options) }
            done.signal()
        }.start()
        usleep(UInt32(max(0.05, reloadAtSeconds) * 1e6))
        let start = MonotonicClock.now()
        let reply = try VarlinkProbe.call(socketPath: options.socketPath, #"{"method":"io.showcase.Admin.Reload"}"#)
        let reloadMilliseconds = Double(MonotonicClock.now() - start) / 1e6
        var reloadError: String?
        var generationAfter = -1
        if reply.withUnsafeBufferPointer({ ReplyScanner.isError($0) }) {
            reloadError = String(decoding: reply, as: UTF8.self)
        } else {
            generationAfter = (try? parameter("generation", in: reply)) ?? -1
        }
        var applied: Bool?
        if let checkCall, let expectAfter {
            let after = try VarlinkProbe.call(socketPath: options.socketPath, checkCall)
            applied = String(decoding: after, as: UTF8.self).contains(expectAfter)
        }
        done.wait()
        guard let result = box.result else { throw BenchError("the load thread ended without a result") }
        return Outcome(
            load: try result.get(), reloadMilliseconds: reloadMilliseconds, generationBefore: generationBefore,
            generationAfter: generationAfter, appliedAfterReload: applied, reloadError: reloadError)
    }

    private static func generation(ofStatus reply: [UInt8]) throws(BenchError) -> Int {
        try parameter("configGeneration", in: reply)
    }

    private static func parameter(_ name: String, in reply: [UInt8]) throws(BenchError) -> Int {
        guard let object = try? JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any],
            let parameters = object["parameters"] as? [String: Any],
            let value = parameters[name] as? Int
        else {
            throw BenchError(
                "the reply has no integer parameter '\(name)': \(String(decoding: reply.prefix(300), as: UTF8.self))")
        }
        return value
    }

    /// Carries the load thread's result back to the probe after the thread signalled completion.
    private final class ResultBox: @unchecked Sendable {
        var result: Result<LoadResult, BenchError>?
    }
}
