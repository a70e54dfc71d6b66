@preconcurrency import Glibc

/// Ctrl-C handling for commands that run until interrupted (`watch`).
///
/// Kept out of `main.swift`, whose closures would be inferred main-actor isolated; the handler
/// only calls `_exit`, which is async-signal-safe. Output is flushed after every document, so
/// nothing written is lost.
enum Interrupt {
    /// Makes SIGINT and SIGTERM end the process with status 0: interrupting a watch is how it is
    /// meant to end, not a failure.
    ///
    /// The signals are also unblocked: a parent that blocks them in its threads (test runners,
    /// some supervisors) passes that mask on, and a watch that cannot be interrupted would run
    /// forever.
    static func exitQuietlyOnInterrupt() {
        signal(SIGINT) { _ in _exit(0) }
        signal(SIGTERM) { _ in _exit(0) }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }
}
