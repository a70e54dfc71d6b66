import Foundation
@preconcurrency import Glibc

/// A process the harness starts (the daemon, showcasectl, lookup-replay) with posix_spawn, so that the time
/// from exec to an answer is not padded by Foundation's Process machinery.
struct ChildProcess {
    let pid: pid_t

    /// Starts `command` with the harness's environment; stdout and stderr are appended to `logPath`
    /// (or discarded when nil).
    static func spawn(_ command: [String], logPath: String?) throws(BenchError) -> ChildProcess {
        guard let program = command.first else { throw BenchError("no command given after --") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let target = logPath ?? "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 1, target, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pid: pid_t = 0
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawnp(&pid, program, &actions, nil, argv, environ)
        guard status == 0 else {
            throw BenchError("cannot start \(program): \(String(cString: strerror(status))); build it first")
        }
        return ChildProcess(pid: pid)
    }

    /// The exit status if the process has ended (reaping it), nil while it runs.
    func exitStatus() -> Int32? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        guard result == pid else { return nil }
        return Self.decode(status)
    }

    /// Waits for the process to end and returns its exit status (128+signal when killed).
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return Self.decode(status)
    }

    /// SIGTERM, then SIGKILL if it has not ended within `graceSeconds`.
    func stop(graceSeconds: Double = 5) -> Int32 {
        kill(pid, SIGTERM)
        let deadline = MonotonicClock.now() + MonotonicClock.nanoseconds(seconds: graceSeconds)
        while MonotonicClock.now() < deadline {
            if let status = exitStatus() { return status }
            usleep(2000)
        }
        kill(pid, SIGKILL)
        return wait()
    }

    /// VmRSS and VmHWM from /proc/PID/status, in KiB.
    func memory() -> (rssKiB: Int, peakKiB: Int)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else {
                return nil
            }
            return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap {
                Int($0.trimmingCharacters(in: .whitespaces))
            }
        }
        guard let rss = field("VmRSS"), let peak = field("VmHWM") else { return nil }
        return (rss, peak)
    }

    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
