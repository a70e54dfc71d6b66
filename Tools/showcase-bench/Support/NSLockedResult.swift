import Foundation

/// The refresh call's reply and arrival time, handed from its thread to the fan-out probe.
final class NSLockedResult: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (String, UInt64)?

    func set(_ reply: String, _ time: UInt64) { lock.withLock { value = (reply, time) } }

    func get() -> (String, UInt64)? { lock.withLock { value } }
}
