import Foundation
import Locking
import Testing

@Suite("startDetachedThread and LockedBox: Foundation's Thread and NSLock without Foundation")
struct DetachedThreadTests {
    /// The calling thread's name as Linux keeps it (`/proc/thread-self/comm`, without its newline).
    private static func currentThreadName() -> String {
        let text = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    @Test("the body runs on another thread, under the name given (cut to Linux's 15 bytes)")
    func runsNamed() {
        let seen = LockedBox<(name: String, sameThread: Bool)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let caller = pthread_self()
        startDetachedThread(named: "showcase-worker-thread") {
            seen.withLock { $0 = (Self.currentThreadName(), pthread_equal(pthread_self(), caller) != 0) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        let result = seen.withLock { $0 }
        #expect(result?.name == "showcase-worker")
        #expect(result?.sameThread == false)
    }

    @Test("many threads started at once each run once, and a LockedBox counts them all")
    func manyThreads() {
        let count = 64
        let counter = LockedBox(0)
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            startDetachedThread {
                for _ in 0..<100 { counter.withLock { $0 += 1 } }
                done.signal()
            }
        }
        for _ in 0..<count { #expect(done.wait(timeout: .now() + 10) == .success) }
        #expect(counter.withLock { $0 } == count * 100)
    }

    @Test("LockedBox passes a thrown error through unchanged")
    func passesErrors() {
        struct Refused: Error, Equatable {}
        let box = LockedBox([1])
        #expect(throws: Refused()) {
            try box.withLock { (_: inout [Int]) throws(Refused) in throw Refused() }
        }
        #expect(box.withLock { $0 } == [1])
    }
}
