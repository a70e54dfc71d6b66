import Foundation
import Varlink

/// The calls a `FakeDaemon` received, appended from its event-loop thread, read by the test.
final class CallLog: @unchecked Sendable {
    private let lock = NSLock()
    private var received: [VarlinkCall] = []

    func append(_ call: VarlinkCall) {
        lock.lock()
        defer { lock.unlock() }
        received.append(call)
    }

    var calls: [VarlinkCall] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }
}
