import FoundationEssentials

#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

extension ServerConnection {
    /// Splits `bytes` just read into NUL-terminated messages and hands each to `handle`, using `input` only when
    /// a message spans reads; keeps the unterminated rest in `input`. Stops when the connection closes (a
    /// handler may close it). Returns false when a message, complete or not, exceeds `maxMessageBytes`: the
    /// caller closes the connection instead of buffering without bound.
    func splitMessages(
        _ bytes: UnsafeBufferPointer<UInt8>, maxMessageBytes: Int, _ handle: (UnsafeBufferPointer<UInt8>) -> Void
    ) -> Bool {
        var start = 0
        while start < bytes.count, isOpen {
            guard let base = bytes.baseAddress,
                let found = memchr(base + start, 0, bytes.count - start)
            else { break }
            let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if input.isEmpty {
                guard end - start <= maxMessageBytes else { return false }
                handle(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            } else {
                guard input.count + (end - start) <= maxMessageBytes else { return false }
                input.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                // Moved out before the handler runs: closing the connection from inside it clears `input`.
                var message: [UInt8] = []
                swap(&message, &input)
                message.withUnsafeBufferPointer { handle($0) }
                message.removeAll(keepingCapacity: true)
                if input.isEmpty, message.capacity <= 65536 { swap(&message, &input) }
            }
            start = end + 1
        }
        guard isOpen, start < bytes.count else { return true }
        guard input.count + (bytes.count - start) <= maxMessageBytes else { return false }
        input.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<bytes.count]))
        return true
    }
}
