import ShowcaseConfig
import Testing

@Suite("Default paths")
struct DefaultPathsTests {
    @Test("prefers the directories systemd passes in the environment")
    func systemd() {
        let paths = DefaultPaths(
            environment: [
                "CONFIGURATION_DIRECTORY": "/etc/showcase", "CACHE_DIRECTORY": "/var/cache/showcase:/var/cache/other",
                "RUNTIME_DIRECTORY": "/run/showcase", "STATE_DIRECTORY": "/var/lib/showcase", "HOME": "/home/x",
            ], uid: 998)
        #expect(paths.stateDirectory == "/var/lib/showcase")
        #expect(paths.configFile == "/etc/showcase/showcase.yaml")
        #expect(paths.cacheDirectory == "/var/cache/showcase")
        #expect(paths.socketPath == "/run/showcase/showcased.sock")
    }

    @Test("uses the system locations as root")
    func root() {
        let paths = DefaultPaths(environment: ["HOME": "/root", "XDG_RUNTIME_DIR": "/run/user/0"], uid: 0)
        #expect(paths.stateDirectory == "/var/lib/showcase")
        #expect(paths.configFile == "/etc/showcase/showcase.yaml")
        #expect(paths.cacheDirectory == "/var/cache/showcase")
        #expect(paths.socketPath == "/run/showcase/showcased.sock")
    }

    @Test("uses the XDG base directories for other users")
    func xdg() {
        let paths = DefaultPaths(
            environment: [
                "HOME": "/home/x", "XDG_CONFIG_HOME": "/cfg", "XDG_CACHE_HOME": "/cache",
                "XDG_RUNTIME_DIR": "/run/user/1000", "XDG_STATE_HOME": "/st",
            ], uid: 1000)
        #expect(paths.stateDirectory == "/st/showcase")
        #expect(paths.configFile == "/cfg/showcase/showcase.yaml")
        #expect(paths.cacheDirectory == "/cache/showcase")
        #expect(paths.socketPath == "/run/user/1000/showcase/showcased.sock")
    }

    @Test("falls back to the XDG defaults under HOME when the variables are unset or empty")
    func xdgFallbacks() {
        let paths = DefaultPaths(environment: ["HOME": "/home/x", "XDG_CONFIG_HOME": ""], uid: 1000)
        #expect(paths.stateDirectory == "/home/x/.local/state/showcase")
        #expect(paths.configFile == "/home/x/.config/showcase/showcase.yaml")
        #expect(paths.cacheDirectory == "/home/x/.cache/showcase")
        #expect(paths.socketPath == "/run/user/1000/showcase/showcased.sock")
    }

    @Test("SHOWCASE_SOCKET wins over RUNTIME_DIRECTORY, /run as root and XDG; empty, it is ignored")
    func socketVariable() {
        let everything = [
            "SHOWCASE_SOCKET": "/srv/showcase.sock", "RUNTIME_DIRECTORY": "/run/showcase", "XDG_RUNTIME_DIR": "/run/u",
        ]
        for uid: UInt32 in [0, 1000] {
            let paths = DefaultPaths(environment: everything, uid: uid)
            #expect(paths.socketPath == "/srv/showcase.sock")
            #expect(paths.socketVariableProblem == nil)
        }
        let empty = DefaultPaths(environment: ["SHOWCASE_SOCKET": "", "XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000)
        #expect(empty.socketPath == "/run/user/1000/showcase/showcased.sock")
        #expect(empty.socketVariableProblem == nil)
    }

    @Test("a relative SHOWCASE_SOCKET is a problem naming the variable, and the loader reports it without socket.path")
    func relativeSocketVariable() throws {
        let paths = DefaultPaths(environment: ["SHOWCASE_SOCKET": "run/showcased.sock", "HOME": "/home/x"], uid: 1000)
        let problem = try #require(paths.socketVariableProblem)
        #expect(problem.hasPrefix("SHOWCASE_SOCKET must be an absolute path, found 'run/showcased.sock'"))

        let directory = try TemporaryDirectory(files: [
            "default.yaml": "hosts: [{bundle_id: com.example.NoteJar}]\n",
            "own.yaml": "hosts: [{bundle_id: com.example.NoteJar}]\nsocket:\n  path: /srv/own.sock\n",
        ])
        do {
            _ = try ConfigLoader.load(path: directory.file("default.yaml"), defaults: paths)
            Issue.record("a configuration relying on a relative SHOWCASE_SOCKET loaded")
        } catch {
            #expect(error.errors.map(\.message) == [problem])
        }
        let own = try ConfigLoader.load(path: directory.file("own.yaml"), defaults: paths)
        #expect(own.socket.path == "/srv/own.sock")
    }
}
