import Foundation
import Locking
import Testing

/// What `make sanitize` checks here: run under ThreadSanitizer (halt_on_error), these tests stop the test process
/// with a race report if `Lock` stops telling it about its critical sections; without it they check the values.
@Suite("Lock: a Mutex ThreadSanitizer sees")
struct LockTests {
    /// Mutable on purpose and never locked itself: only the hand-off through a `Lock` orders its accesses.
    final class Parcel: @unchecked Sendable {
        var serial: Int
        var payload: [Int]

        init(serial: Int) {
            self.serial = serial
            payload = []
        }
    }

    /// Runs `body` on a thread of its own and returns a semaphore signalled when it is done.
    private func spawn(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done
    }

    @Test("an object built on one thread and handed over through a lock is read whole on another")
    func handOff() {
        let count = 2_000
        let inbox = Lock<[Parcel]>([])
        let received = Lock<Int>(0)
        let producer = spawn {
            for serial in 0..<count {
                let parcel = Parcel(serial: serial)  // written outside any lock…
                parcel.payload = [serial, serial &* 2]
                inbox.withLock { $0.append(parcel) }  // …published through the lock
            }
        }
        let consumer = spawn {
            var seen = 0
            var sum = 0
            let deadline = Date().addingTimeInterval(60)
            while seen < count, Date() < deadline {
                let parcels = inbox.withLock { inbox in
                    defer { inbox.removeAll() }
                    return inbox
                }
                for parcel in parcels {  // read and written outside the lock, after taking it out
                    sum &+= parcel.payload.reduce(0, &+) &- 3 &* parcel.serial
                    parcel.payload.removeAll()
                    seen += 1
                }
            }
            let (checked, mismatch) = (seen, sum)
            received.withLock { $0 = mismatch == 0 ? checked : -1 }
        }
        #expect(producer.wait(timeout: .now() + 60) == .success)
        #expect(consumer.wait(timeout: .now() + 60) == .success)
        #expect(received.withLock { $0 } == count)
    }

    @Test("critical sections of one lock exclude each other")
    func exclusion() {
        let counts = Lock<[Int: Int]>([:])
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for step in 0..<5_000 { counts.withLock { $0[step % 7, default: 0] += 1 } }
        }
        #expect(counts.withLock { $0.values.reduce(0, +) } == 20_000)
        #expect(counts.withLock { $0[0] } == 4 * 715)
    }

    @Test("a typed error thrown inside leaves the lock and the value as the body left them")
    func throwingBody() {
        struct Refused: Error, Equatable { let reason: String }
        let value = Lock<[String]>([])
        #expect(throws: Refused(reason: "full")) {
            try value.withLock { (list: inout [String]) throws(Refused) in
                list.append("kept")
                throw Refused(reason: "full")
            }
        }
        #expect(value.withLock { $0 } == ["kept"])  // locked again: the throw unlocked it
    }
}
