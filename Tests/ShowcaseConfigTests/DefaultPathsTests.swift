import ShowcaseConfig
import Testing

@Suite("Default paths")
struct DefaultPathsTests {
    @Test("prefers the directories systemd passes in the environment")
    func systemd() {
        let paths = DefaultPaths(
            environment: [
                "CONFIGURATION_DIRECTORY": "/etc/showcase", "CACHE_DIRECTORY": "/var/cache/showcase:/var/cache/other",
                "RUNTIME_DIRECTORY": "/run/showcase", "HOME": "/home/x",
            ], uid: 998)
        #expect(paths.configFile == "/etc/showcase/showcase.yaml")
        #expect(paths.cacheDirectory == "/var/cache/showcase")
        #expect(paths.socketPath == "/run/showcase/showcased.sock")
    }

    @Test("uses the system locations as root")
    func root() {
        let paths = DefaultPaths(environment: ["HOME": "/root", "XDG_RUNTIME_DIR": "/run/user/0"], uid: 0)
        #expect(paths.configFile == "/etc/showcase/showcase.yaml")
        #expect(paths.cacheDirectory == "/var/cache/showcase")
        #expect(paths.socketPath == "/run/showcase/showcased.sock")
    }

    @Test("uses the XDG base directories for other users")
    func xdg() {
        let paths = DefaultPaths(
            environment: [
                "HOME": "/home/x", "XDG_CONFIG_HOME": "/cfg", "XDG_CACHE_HOME": "/cache",
                "XDG_RUNTIME_DIR": "/run/user/1000",
            ], uid: 1000)
        #expect(paths.configFile == "/cfg/showcase/showcase.yaml")
        #expect(paths.cacheDirectory == "/cache/showcase")
        #expect(paths.socketPath == "/run/user/1000/showcase/showcased.sock")
    }

    @Test("falls back to the XDG defaults under HOME when the variables are unset or empty")
    func xdgFallbacks() {
        let paths = DefaultPaths(environment: ["HOME": "/home/x", "XDG_CONFIG_HOME": ""], uid: 1000)
        #expect(paths.configFile == "/home/x/.config/showcase/showcase.yaml")
        #expect(paths.cacheDirectory == "/home/x/.cache/showcase")
        #expect(paths.socketPath == "/run/user/1000/showcase/showcased.sock")
    }
}
