// The libFuzzer entry every fuzz target shares (built only by `make fuzz`).
#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// libFuzzer's driver (in the fuzzer runtime that `-sanitize=fuzzer` links).
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Starts libFuzzer for one fuzz target. SwiftPM links an executable's `main` to `<module>_main`, so libFuzzer's
/// own `main` is never used: each target's `<module>_main` hands its command line and its test function here.
public enum FuzzingDriver {
    /// A target's test function as libFuzzer calls it: the input's bytes and their count; returns 0.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

    /// Runs libFuzzer's driver over `testOneInput` with the process's command line, and returns its exit status.
    ///
    /// Unless `SWIFT_BACKTRACE` is set, the process first re-executes itself with `SWIFT_BACKTRACE=enable=no`:
    /// on a trap, the Swift runtime's crash handler copies every thread's stack for its backtrace, and
    /// AddressSanitizer reports that copy as a stack-buffer-underflow in whatever frame it reads (the Varlink
    /// loop parked in `epoll_wait`, say), aborting before the trap itself is reported and its input saved.
    public static func run(
        _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ testOneInput: TestOneInput
    ) -> Int32 {
        if getenv("SWIFT_BACKTRACE") == nil, let argv {
            setenv("SWIFT_BACKTRACE", "enable=no", 1)
            execv("/proc/self/exe", argv)
            // Not re-executed: carry on with the runtime's crash handler as it was set up at start.
        }
        var count = argc
        var arguments = argv
        return runDriver(&count, &arguments, testOneInput)
    }
}
