/// The event loop's open connections, found by id with an array index instead of a hashed lookup.
///
/// A connection's id is its descriptor in the low 32 bits and a serial number above them, so the loop finds it
/// by indexing an array with the descriptor and comparing the whole id: a descriptor the kernel gave to a new
/// connection after an old one closed never answers for the old id (a reply on its way to a closed connection,
/// or an epoll event read in the same batch as the close). The loop looks a connection up twice per call (its
/// event, then the handler's reply), so neither lookup hashes the id.
///
/// Confined to the event-loop thread, like the connections.
struct ConnectionTable {
    /// The connection holding each descriptor, nil where none does.
    private var byDescriptor: [ServerConnection?] = []
    /// Open connections.
    private(set) var count = 0
    /// The serial number the next id gets (at least 1, so no id is 0: the loop's wake-up tag).
    private var nextSerial: UInt64

    /// An empty table whose first id gets serial number `firstSerial` (tests start near the wrap).
    init(firstSerial: UInt64 = 1) {
        nextSerial = max(1, firstSerial & Self.serialMask)
    }

    /// Serial numbers take 29 bits above the descriptor's 32, so an id never reaches bit 62 (the loop's listener
    /// tag); after 2²⁹ connections they start again at 1. An id repeats only if a connection outlives half a
    /// billion others that were given its very descriptor.
    static let serialMask: UInt64 = (1 << 29) - 1

    /// No connection open.
    var isEmpty: Bool { count == 0 }

    /// A fresh id for a connection on descriptor `fd` (non-negative).
    mutating func makeID(fd: Int32) -> UInt64 {
        let serial = nextSerial
        nextSerial = nextSerial & Self.serialMask == Self.serialMask ? 1 : nextSerial + 1
        return serial << 32 | UInt64(UInt32(bitPattern: fd))
    }

    /// The open connection with `id`, if there is one.
    subscript(id: UInt64) -> ServerConnection? {
        let index = Int(id & 0xFFFF_FFFF)
        guard index < byDescriptor.count, let connection = byDescriptor[index], connection.id == id else {
            return nil
        }
        return connection
    }

    /// Adds `connection`, whose id was made by ``makeID(fd:)`` for its descriptor.
    mutating func insert(_ connection: ServerConnection) {
        let index = Int(connection.fd)
        if index >= byDescriptor.count {
            let grown = max(index + 1, byDescriptor.count * 2)
            byDescriptor.append(contentsOf: repeatElement(nil, count: grown - byDescriptor.count))
        }
        if byDescriptor[index] == nil { count += 1 }
        byDescriptor[index] = connection
    }

    /// Removes the connection with `id`, if it is the one this table holds for its descriptor.
    mutating func remove(id: UInt64) {
        let index = Int(id & 0xFFFF_FFFF)
        guard index < byDescriptor.count, let connection = byDescriptor[index], connection.id == id else { return }
        byDescriptor[index] = nil
        count -= 1
    }

    /// Every open connection, in descriptor order (a copy: the caller may close them while it walks the list).
    var all: [ServerConnection] {
        var connections: [ServerConnection] = []
        connections.reserveCapacity(count)
        for case let connection? in byDescriptor { connections.append(connection) }
        return connections
    }
}
