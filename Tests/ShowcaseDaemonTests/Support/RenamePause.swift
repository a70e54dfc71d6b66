import Foundation
@preconcurrency import Glibc

/// Stops the daemon at one exact point of a cache write — after the temporary file is written and synced,
/// before `rename(2)` puts it in place — so a test can `kill -9` it there every time instead of by chance.
///
/// A small `LD_PRELOAD` library, compiled here with `cc`, wraps libc's `rename` and `renameat`: while the arm file exists
/// and the destination's name contains `match`, it records the temporary path in the marker file and
/// sleeps forever instead of renaming. Nothing in the daemon knows about it: started without the
/// environment from ``environment(match:)``, the daemon runs unchanged.
final class RenamePause {
    let library: URL
    let armFile: URL
    let markerFile: URL

    static let source = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <fcntl.h>
        #include <limits.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>

        /* Records `from` (absolute) in the marker file and never returns, when armed and `to` matches. */
        static void pause_if_armed(const char *from, const char *to) {
            const char *arm = getenv("SHOWCASE_TEST_RENAME_ARM");
            const char *marker = getenv("SHOWCASE_TEST_RENAME_MARKER");
            const char *match = getenv("SHOWCASE_TEST_RENAME_MATCH");
            if (arm && marker && match && strstr(to, match) && access(arm, F_OK) == 0) {
                int fd = open(marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
                if (fd >= 0) {
                    (void)!write(fd, from, strlen(from));
                    close(fd);
                }
                for (;;) pause();
            }
        }

        int rename(const char *from, const char *to) {
            pause_if_armed(from, to);
            int (*real)(const char *, const char *) = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
            return real(from, to);
        }

        /* The daemon writes through directory descriptors (DirectorySafety): names are relative to them. */
        int renameat(int fromdir, const char *from, int todir, const char *to) {
            char link[64], folder[PATH_MAX], whole_from[PATH_MAX * 2], whole_to[PATH_MAX * 2];
            snprintf(link, sizeof link, "/proc/self/fd/%d", fromdir);
            ssize_t length = readlink(link, folder, sizeof folder - 1);
            if (length > 0) {
                folder[length] = 0;
                snprintf(whole_from, sizeof whole_from, "%s/%s", folder, from);
                snprintf(whole_to, sizeof whole_to, "%s/%s", folder, to);
                pause_if_armed(whole_from, whole_to);
            }
            int (*real)(int, const char *, int, const char *) =
                (int (*)(int, const char *, int, const char *))dlsym(RTLD_NEXT, "renameat");
            return real(fromdir, from, todir, to);
        }
        """

    /// Builds the library into `directory`; throws with the compiler's output when that fails.
    init(in directory: URL) throws {
        library = directory.appendingPathComponent("rename-pause.so")
        armFile = directory.appendingPathComponent("rename-pause.armed")
        markerFile = directory.appendingPathComponent("rename-pause.paused")
        let sourceFile = directory.appendingPathComponent("rename-pause.c")
        try Self.source.write(to: sourceFile, atomically: true, encoding: .utf8)
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        compiler.arguments = ["cc", "-shared", "-fPIC", "-O1", "-o", library.path, sourceFile.path, "-ldl"]
        let output = Pipe()
        compiler.standardOutput = output
        compiler.standardError = output
        try compiler.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        compiler.waitUntilExit()
        guard compiler.terminationStatus == 0 else {
            throw HarnessError("cc could not build the rename hook (install gcc: scripts/deps.sh): \(text)")
        }
    }

    /// The daemon's environment: preload the library, pause renames whose destination contains `match`.
    func environment(match: String) -> [String: String] {
        [
            "LD_PRELOAD": library.path,
            "SHOWCASE_TEST_RENAME_ARM": armFile.path,
            "SHOWCASE_TEST_RENAME_MARKER": markerFile.path,
            "SHOWCASE_TEST_RENAME_MATCH": match,
        ]
    }

    /// From now on, the next matching rename stops the daemon.
    func arm() throws { try Data().write(to: armFile) }

    /// Waits until a rename has been stopped, and returns the temporary file it would have renamed.
    func waitUntilPaused(timeout: Duration = .seconds(30)) throws -> String {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let path = try? String(contentsOf: markerFile, encoding: .utf8), !path.isEmpty { return path }
            usleep(10_000)
        }
        throw HarnessError("no cache write reached rename(2) in time")
    }
}
