#if canImport(Glibc)
    @preconcurrency import Glibc
#endif

/// The reply bytes one connection has yet to write, and the writing of them: the write-side bookkeeping kept
/// apart from the event loop, as swift-nio keeps `PendingWritesManager` apart from its channel.
///
/// Each chunk is the very array a handler or the reply cache produced: a cached reply is queued by reference and
/// written with one gathering `sendmsg` straight from its storage, never copied in user space. Confined to the
/// event-loop thread with the connection that owns it.
struct PendingWrites {
    /// The most chunks one `sendmsg` gathers.
    static let maxGather = 64

    /// Messages waiting to be written, oldest first.
    private(set) var chunks: [[UInt8]] = []
    /// Bytes of `chunks[0]` already written.
    private(set) var offset = 0
    /// Bytes in `chunks` not yet written.
    private(set) var bytes = 0

    /// Nothing left to write.
    var isEmpty: Bool { bytes == 0 }

    /// Queues `chunk` behind what is already waiting; an empty chunk is dropped.
    mutating func append(_ chunk: [UInt8]) {
        guard !chunk.isEmpty else { return }
        chunks.append(chunk)
        bytes += chunk.count
    }

    /// Drops `count` written bytes from the front.
    mutating func consume(_ count: Int) {
        bytes -= count
        var remaining = offset + count
        var finished = 0
        while finished < chunks.count, remaining >= chunks[finished].count {
            remaining -= chunks[finished].count
            finished += 1
        }
        if finished == chunks.count {
            // Mostly one chunk: removing the last elements one by one keeps the storage without the general
            // `removeAll(keepingCapacity:)`, which this would pay on every call.
            if chunks.count <= 4 {
                while !chunks.isEmpty { _ = chunks.removeLast() }
            } else {
                chunks.removeAll(keepingCapacity: chunks.capacity <= 64)
            }
            offset = 0
        } else {
            chunks.removeFirst(finished)
            offset = remaining
        }
    }

    /// Writes as much as the socket `fd` takes (up to ``maxGather`` chunks) in one gathering `sendmsg`, without
    /// consuming it. Returns the bytes written, or `-errno` (`-EAGAIN` when the socket is full).
    func write(to fd: Int32) -> Int {
        let count = min(chunks.count, Self.maxGather)
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
            Self.gather(chunks, 0, count, offset, into: vectors) {
                var header = msghdr()
                header.msg_iov = vectors.baseAddress
                header.msg_iovlen = count
                while true {
                    let sent = sendmsg(fd, &header, Int32(MSG_NOSIGNAL))
                    if sent >= 0 { return sent }
                    if errno != EINTR { return -Int(errno) }
                }
            }
        }
    }

    /// Points `vectors[index...]` at `chunks[index..<end]` inside nested pointer scopes (so every pointer is
    /// valid while `body` runs), then runs `body`.
    private static func gather(
        _ chunks: [[UInt8]], _ index: Int, _ end: Int, _ offset: Int, into vectors: UnsafeMutableBufferPointer<iovec>,
        _ body: () -> Int
    ) -> Int {
        guard index < end else { return body() }
        return chunks[index].withUnsafeBytes { raw in
            let skip = index == 0 ? offset : 0
            vectors[index] = iovec(
                iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress.map { $0 + skip }),
                iov_len: raw.count - skip)
            return gather(chunks, index + 1, end, offset, into: vectors, body)
        }
    }
}
