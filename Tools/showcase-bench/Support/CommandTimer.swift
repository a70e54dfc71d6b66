/// End-to-end time of a command (showcasectl): spawn, run, exit, repeated, so the figure includes process
/// start-up, dynamic linking, connecting and printing — what a user or a script waits for.
enum CommandTimer {
    struct Outcome {
        var runs: [UInt64]
        var failures: Int
        var lastStatus: Int32
    }

    static func run(command: [String], runs: Int, warmups: Int, logPath: String?) throws(BenchError) -> Outcome {
        for _ in 0..<warmups { _ = try ChildProcess.spawn(command, logPath: logPath).wait() }
        var times: [UInt64] = []
        var failures = 0
        var lastStatus: Int32 = 0
        for _ in 0..<runs {
            let start = MonotonicClock.now()
            lastStatus = try ChildProcess.spawn(command, logPath: logPath).wait()
            times.append(MonotonicClock.now() - start)
            if lastStatus != 0 { failures += 1 }
        }
        return Outcome(runs: times, failures: failures, lastStatus: lastStatus)
    }
}
