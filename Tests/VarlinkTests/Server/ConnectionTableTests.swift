import Testing

@testable import Varlink

@Suite("The loop's connection table: ids, descriptors reused, serial numbers")
struct ConnectionTableTests {
    private let peer = PeerCredentials(pid: 0, uid: 0, gid: 0)

    private func connection(_ table: inout ConnectionTable, fd: Int32) -> ServerConnection {
        ServerConnection(id: table.makeID(fd: fd), fd: fd, peer: peer, now: 0)
    }

    @Test("finds each open connection by its id and counts them")
    func findsByID() {
        var table = ConnectionTable()
        let first = connection(&table, fd: 7)
        let second = connection(&table, fd: 300)
        table.insert(first)
        table.insert(second)
        #expect(table.count == 2)
        #expect(table[first.id] === first)
        #expect(table[second.id] === second)
        #expect(table[first.id ^ (1 << 32)] == nil)
        #expect(Set(table.all.map(\.id)) == [first.id, second.id])
        table.remove(id: first.id)
        #expect(table[first.id] == nil)
        #expect(table.count == 1)
        #expect(table.all.map(\.id) == [second.id])
    }

    @Test("a descriptor given to a new connection never answers for the closed one's id")
    func reusedDescriptor() {
        var table = ConnectionTable()
        let old = connection(&table, fd: 9)
        table.insert(old)
        table.remove(id: old.id)
        let new = connection(&table, fd: 9)
        table.insert(new)
        #expect(old.id != new.id)
        #expect(table[old.id] == nil)
        #expect(table[new.id] === new)
        table.remove(id: old.id)  // a late close of the old id leaves the new connection alone
        #expect(table[new.id] === new)
        #expect(table.count == 1)
    }

    @Test("ids are never 0 and never reach the listener bit, also when serial numbers start again")
    func serialWrap() {
        var table = ConnectionTable(firstSerial: ConnectionTable.serialMask - 1)
        var ids: [UInt64] = []
        for _ in 0..<4 { ids.append(table.makeID(fd: Int32.max)) }
        for id in ids {
            #expect(id != 0)
            #expect(id & (1 << 62) == 0)
            #expect(id & 0xFFFF_FFFF == UInt64(Int32.max))
        }
        #expect(ids.map { $0 >> 32 } == [ConnectionTable.serialMask - 1, ConnectionTable.serialMask, 1, 2])
        #expect(Set(ids).count == ids.count)
    }
}
