/// A command that ran but did not succeed: the one-line message for stderr and the exit status.
///
/// Every failure after parsing (daemon not running, permission denied, a Varlink error reply, a
/// roster still warming) becomes one of these, so no Swift error description ever reaches the user.
struct CommandFailure: Error, Sendable, Equatable {
    let message: String
    let exitCode: ExitCode
}
