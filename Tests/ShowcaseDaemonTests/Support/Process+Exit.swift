import Foundation
@preconcurrency import Glibc

extension Process {
    /// Waits for the child to exit and returns its exit status (128+N for a signal); one still running after
    /// `timeout` is killed and `hung()` thrown (a bound against hangs, not a timing assertion).
    func exitStatus(within timeout: Duration, orThrow hung: () -> HarnessError) throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while isRunning {
            if ContinuousClock.now > deadline {
                kill(processIdentifier, SIGKILL)
                throw hung()
            }
            usleep(10_000)
        }
        waitUntilExit()
        return terminationReason == .uncaughtSignal ? 128 + terminationStatus : terminationStatus
    }
}
