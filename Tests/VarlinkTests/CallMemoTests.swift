import Testing

@testable import Varlink

@Suite("Call memo shared by a loop's connections")
struct CallMemoTests {
    private func withBytes<T>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        Array(text.utf8).withUnsafeBufferPointer(body)
    }

    @Test("a message seen before returns its members; a different one of the same length does not")
    func hitsOnlyTheSameBytes() throws {
        let memo = CallMemo()
        let first = #"{"method":"io.showcase.Roster.Get","parameters":{"storefront":"us"}}"#
        let other = #"{"method":"io.showcase.Roster.Get","parameters":{"storefront":"de"}}"#
        #expect(withBytes(first) { memo.call(for: $0) } == nil)
        let parsed = try JSONValue(parsing: Array(first.utf8))
        guard case .object(let fields) = parsed else {
            Issue.record("the call did not parse to an object")
            return
        }
        memo.remember(RememberedCall(bytes: Array(first.utf8), fields: fields))
        #expect(withBytes(first) { memo.call(for: $0) }?.fields == fields)
        #expect(withBytes(other) { memo.call(for: $0) } == nil)
    }

    @Test("a connection's call uses the memo another connection filled, and parses the same")
    func sharedAcrossConnections() throws {
        let memo = CallMemo(slotCount: 4)
        let call = #"{"method":"io.showcase.Roster.Get","parameters":{"storefront":"jp","locale":"ja"}}"#
        let direct = try JSONValue(parsing: Array(call.utf8))
        let peer = PeerCredentials(pid: 0, uid: 0, gid: 0)
        let first = ServerConnection(id: 1, fd: -1, peer: peer, now: 0)
        let second = ServerConnection(id: 2, fd: -1, peer: peer, now: 0)
        let one = withBytes(call) { first.callFields($0, memo: memo) }
        let remembered = try #require(withBytes(call) { memo.call(for: $0) })
        let two = withBytes(call) { second.callFields($0, memo: memo) }
        #expect(one.map(JSONValue.object) == direct)
        #expect(two.map(JSONValue.object) == direct)
        // Both connections hold the memo's own entry: the bytes were copied once, when first parsed.
        #expect(first.lastCall === remembered)
        #expect(second.lastCall === remembered)
    }

    @Test("two messages that share a pair of slots both stay; a third pushes out the one used least recently")
    func twoWays() throws {
        let memo = CallMemo(slotCount: 2)  // one pair: every message shares it
        func call(_ code: String) -> RememberedCall {
            let text = #"{"method":"io.showcase.Roster.Get","parameters":{"storefront":"\#(code)"}}"#
            return RememberedCall(bytes: Array(text.utf8), fields: ["storefront": .string(code)])
        }
        let (us, de, jp) = (call("us"), call("de"), call("jp"))
        memo.remember(us)
        memo.remember(de)
        #expect(us.bytes.withUnsafeBufferPointer { memo.call(for: $0) } === us)
        #expect(de.bytes.withUnsafeBufferPointer { memo.call(for: $0) } === de)
        _ = us.bytes.withUnsafeBufferPointer { memo.call(for: $0) }  // us used last
        memo.remember(jp)
        #expect(jp.bytes.withUnsafeBufferPointer { memo.call(for: $0) } === jp)
        #expect(us.bytes.withUnsafeBufferPointer { memo.call(for: $0) } === us)
        #expect(de.bytes.withUnsafeBufferPointer { memo.call(for: $0) } == nil)
    }

    @Test("messages longer than the bound are never kept")
    func boundsMessageSize() {
        let memo = CallMemo()
        let long = #"{"method":"x","parameters":{"pad":""# + String(repeating: "a", count: CallMemo.maxBytes) + #""}}"#
        memo.remember(RememberedCall(bytes: Array(long.utf8), fields: [:]))
        #expect(withBytes(long) { memo.call(for: $0) } == nil)
    }
}
