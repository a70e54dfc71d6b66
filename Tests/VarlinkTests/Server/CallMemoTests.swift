import Foundation
import Locking
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
        let one = withBytes(call) { first.call($0, memo: memo)?.fields }
        let remembered = try #require(withBytes(call) { memo.call(for: $0) })
        let two = withBytes(call) { second.call($0, memo: memo)?.fields }
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

    @Test("a handler's derived value is shared by calls with the same bytes and never given to a different call")
    func derivedValuePerMessage() throws {
        let memo = CallMemo(slotCount: 2)  // one pair: every message shares it, and a third pushes one out
        let peer = PeerCredentials(pid: 0, uid: 0, gid: 0)
        let first = ServerConnection(id: 1, fd: -1, peer: peer, now: 0)
        let second = ServerConnection(id: 2, fd: -1, peer: peer, now: 0)
        func text(_ code: String) -> String {
            #"{"method":"io.showcase.Roster.Get","parameters":{"storefront":"\#(code)"}}"#
        }
        var derivations = 0
        func storefront(_ connection: ServerConnection, _ code: String) throws -> String {
            let remembered = try #require(withBytes(text(code)) { connection.call($0, memo: memo) })
            let envelope = try #require(remembered.envelope)
            let call = VarlinkCall(envelope: envelope, peer: peer, remembered: remembered)
            return try call.remembered { () throws(VarlinkError) in
                derivations += 1
                return Derived(try call.string("storefront"))
            }.text
        }
        #expect(try storefront(first, "us") == "us")
        #expect(try storefront(second, "us") == "us")  // the same bytes on another connection: kept
        #expect(derivations == 1)
        #expect(try storefront(second, "de") == "de")  // other bytes: derived for them, not the us value
        #expect(derivations == 2)
        #expect(try storefront(first, "de") == "de")
        #expect(try storefront(first, "us") == "us")
        #expect(derivations == 2)
        #expect(try storefront(first, "jp") == "jp")  // pushes de out of the memo (us was used last)
        #expect(try storefront(first, "de") == "de")  // de parsed again: a new entry, derived again
        #expect(derivations == 4)
        #expect(try storefront(second, "jp") == "jp")  // the memo's jp entry, with its value
        #expect(derivations == 4)
    }

    @Test("off the event-loop thread a call derives every time and keeps nothing")
    func derivedOnlyOnItsThread() throws {
        let bytes = Array(#"{"method":"io.showcase.Roster.Get","parameters":{"storefront":"us"}}"#.utf8)
        let remembered = RememberedCall(bytes: bytes, fields: [:])  // made on this thread: its loop thread
        let envelope = CallEnvelope(
            method: "io.showcase.Roster.Get", parameters: ["storefront": .string("us")], more: false, oneway: false)
        let call = VarlinkCall(envelope: envelope, peer: .unknown, remembered: remembered)
        let results = Lock<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let other = Thread {  // certainly another thread: this one waits for it
            for text in ["one", "two"] {
                let value = try? call.remembered { () throws(VarlinkError) in Derived(text) }
                results.withLock { $0.append(value?.text ?? "failed") }
            }
            done.signal()
        }
        other.start()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(results.withLock { $0 } == ["one", "two"])
        // On its own thread the entry keeps the first value derived.
        #expect(try call.remembered { () throws(VarlinkError) in Derived("three") }.text == "three")
        #expect(try call.remembered { () throws(VarlinkError) in Derived("four") }.text == "three")
    }

    @Test("a derivation that throws keeps nothing, and the next call derives again")
    func failedDerivationKeepsNothing() throws {
        let bytes = Array(#"{"method":"io.showcase.Roster.Get","parameters":{}}"#.utf8)
        let envelope = CallEnvelope(method: "io.showcase.Roster.Get", parameters: [:], more: false, oneway: false)
        let remembered = RememberedCall(bytes: bytes, fields: [:])
        let call = VarlinkCall(envelope: envelope, peer: .unknown, remembered: remembered)
        #expect(throws: VarlinkError.self) {
            try call.remembered { () throws(VarlinkError) -> Derived in throw .invalidParameter("storefront") }
        }
        #expect(try call.remembered { () throws(VarlinkError) in Derived("second") }.text == "second")
        #expect(try call.remembered { () throws(VarlinkError) in Derived("third") }.text == "second")
    }

    @Test("messages longer than the bound are never kept")
    func boundsMessageSize() {
        let memo = CallMemo()
        let long = #"{"method":"x","parameters":{"pad":""# + String(repeating: "a", count: CallMemo.maxBytes) + #""}}"#
        memo.remember(RememberedCall(bytes: Array(long.utf8), fields: [:]))
        #expect(withBytes(long) { memo.call(for: $0) } == nil)
    }

    @Test("a message a connection keeps as its last call but longer than the memo's bound stays out of the memo")
    func memoBoundBelowConnectionBound() throws {
        #expect(CallMemo.maxBytes < RememberedCall.maxBytes)
        let memo = CallMemo()
        let padding = String(repeating: "a", count: CallMemo.maxBytes)
        let message = #"{"method":"io.showcase.Roster.Get","parameters":{"pad":""# + padding + #""}}"#
        #expect(message.utf8.count <= RememberedCall.maxBytes)
        let connection = ServerConnection(id: 1, fd: -1, peer: PeerCredentials(pid: 0, uid: 0, gid: 0), now: 0)
        let parsed = try #require(withBytes(message) { connection.call($0, memo: memo) })
        #expect(withBytes(message) { connection.call($0, memo: memo) } === parsed)  // the connection's last call
        #expect(withBytes(message) { memo.call(for: $0) } == nil)
    }
}

/// A value a handler derives from a call's parameters, for the memo tests.
private final class Derived: Sendable {
    let text: String
    init(_ text: String) { self.text = text }
}
