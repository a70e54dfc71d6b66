@preconcurrency import Glibc

/// CLOCK_MONOTONIC in nanoseconds: immune to wall-clock steps, cheap enough (vDSO) to read per reply batch.
enum MonotonicClock {
    @inline(__always)
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// Seconds as nanoseconds, for deadlines given on the command line.
    static func nanoseconds(seconds: Double) -> UInt64 { UInt64(max(0, seconds) * 1e9) }
}
