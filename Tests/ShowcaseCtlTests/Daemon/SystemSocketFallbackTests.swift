import Foundation
import Testing

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// A member of group `showcase` reaches the system service without `--socket`: an ordinary user's
/// default (`$XDG_RUNTIME_DIR/showcase/showcased.sock`) falls back to `/run/showcase/showcased.sock`
/// when only that one exists. The real /run is never touched: each run happens in a private mount
/// namespace (`unshare -m`) with an empty tmpfs over /run, where a real showcased binds the system
/// path, and showcasectl runs as uid 65534 (`setpriv`), as a group member would.
@Suite(
    "showcasectl finds the system daemon for ordinary users",
    .enabled(
        if: getuid() == 0 && Tool.find("unshare") != nil && Tool.find("setpriv") != nil,
        "needs root, unshare and setpriv"))
struct SystemSocketFallbackTests {
    /// Runs in the namespace: $1 showcased, $2 showcasectl, $3 scratch directory, then showcasectl's
    /// arguments. Writes ctl.out, ctl.err and ctl.rc once without a daemon ("none.*") and once with the
    /// system daemon listening ("system.*").
    static let script = """
        daemon=$1 ctl=$2 dir=$3
        shift 3
        mount -t tmpfs -o mode=0755 tmpfs /run || exit 90
        mkdir -p /run/showcase || exit 91
        as_user() {
            name=$1
            shift
            setpriv --reuid 65534 --regid 65534 --clear-groups \\
                env -i PATH=/usr/bin:/bin XDG_RUNTIME_DIR="$dir/xdg" "$ctl" "$@" >"$dir/$name.out" 2>"$dir/$name.err"
            echo $? >"$dir/$name.rc"
        }
        as_user none "$@"
        "$daemon" --config "$dir/showcase.yaml" --socket /run/showcase/showcased.sock 2>"$dir/daemon.log" &
        pid=$!
        for _ in $(seq 100); do [ -S /run/showcase/showcased.sock ] && break; sleep 0.1; done
        [ -S /run/showcase/showcased.sock ] || { kill $pid; exit 92; }
        as_user system "$@"
        kill -TERM $pid
        wait $pid
        """

    struct Outcome {
        let withoutDaemon: CtlResult
        let withSystemDaemon: CtlResult
    }

    /// Runs `showcasectl ARGUMENTS` as uid 65534 before and after a system daemon starts; `prepare`
    /// may place things in the user's runtime directory first.
    func run(_ arguments: [String], prepare: (URL) throws -> Void = { _ in }) throws -> Outcome {
        try RealDaemon.requireBuilt()
        let dir = try Ctl.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let xdg = dir.appendingPathComponent("xdg/showcase")
        try FileManager.default.createDirectory(at: xdg, withIntermediateDirectories: true)
        for path in [dir.path, dir.path + "/xdg", xdg.path] {
            try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: path)
        }
        try prepare(xdg)
        // Nothing upstream answers on port 9: the daemon serves and answers GetInfo regardless.
        let config = """
            hosts:
              - bundle_id: com.quietharbor.TideLog
            lookup:
              endpoint: http://127.0.0.1:9/lookup
            cache:
              directory: \(dir.path)/cache
            socket:
              mode: "0666"
            """
        try config.write(to: dir.appendingPathComponent("showcase.yaml"), atomically: true, encoding: .utf8)
        let unshare = try #require(Tool.find("unshare"))
        let namespace = try Tool.capture(
            unshare,
            [
                "-m", "--propagation", "private", "sh", "-c", Self.script, "sh", RealDaemon.binary,
                try Ctl.worldReadableBinary(), dir.path,
            ] + arguments,
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        let log = (try? String(contentsOf: dir.appendingPathComponent("daemon.log"), encoding: .utf8)) ?? ""
        try #require(namespace.status == 0, "namespace run failed (\(namespace.status)): \(namespace.stderr) \(log)")
        func result(_ name: String) throws -> CtlResult {
            func read(_ suffix: String) throws -> String {
                try String(contentsOf: dir.appendingPathComponent("\(name).\(suffix)"), encoding: .utf8)
            }
            let status = try #require(Int32(try read("rc").trimmingCharacters(in: .whitespacesAndNewlines)))
            return CtlResult(status: status, stdout: try read("out"), stderr: try read("err"))
        }
        return Outcome(withoutDaemon: try result("none"), withSystemDaemon: try result("system"))
    }

    @Test("with no per-user daemon, a user's showcasectl uses /run/showcase/showcased.sock")
    func fallsBackToTheSystemSocket() throws {
        let outcome = try run(["version"])
        #expect(outcome.withSystemDaemon.status == 0)
        let daemonLine = outcome.withSystemDaemon.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(daemonLine.hasPrefix("showcased "))
        #expect(daemonLine.hasSuffix(" at /run/showcase/showcased.sock"))
    }

    @Test("when neither socket exists, the not-running message names both places it looked (69)")
    func namesEveryPathTried() throws {
        let outcome = try run(["roster", "--storefront", "de"])
        let result = outcome.withoutDaemon
        #expect(result.status == 69)
        #expect(result.stderr.contains("showcase/showcased.sock or /run/showcase/showcased.sock"))
        #expect(result.stderr.contains("xdg/showcase/showcased.sock"))
        // A group member cannot start the system service: their own daemon, or an administrator's.
        #expect(result.stderr.contains("start your own with: showcased (or systemctl --user start showcased)"))
        #expect(result.stderr.contains("ask an administrator to run: systemctl start showcased"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("a socket in the user's own runtime directory wins over the system one")
    func ownSocketWins() throws {
        var own = ""
        let outcome = try run(["storefronts"]) { xdg in
            own = xdg.appendingPathComponent("showcased.sock").path
            try StaleSocket.create(at: own)
            chmod(own, 0o777)
        }
        #expect(outcome.withSystemDaemon.status == 69)
        #expect(outcome.withSystemDaemon.stderr.contains("no daemon listens on \(own)"))
        #expect(!outcome.withSystemDaemon.stderr.contains("/run/showcase"))
    }
}
