import Testing

@testable import showcase_bench

@Suite("Reply scanning in the load generator")
struct ReplyScannerTests {
    private func isError(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { ReplyScanner.isError($0) }
    }

    @Test("counts a reply whose top-level object has an error member as an error, wherever the member is")
    func topLevelErrorAnywhere() {
        #expect(isError(#"{"error":"io.showcase.Roster.UnknownStorefront","parameters":{"storefront":"zz"}}"#))
        #expect(isError(#"{"parameters":{"storefront":"zz","apps":[{"id":1}]},"error":"org.varlink.service.X"}"#))
        #expect(isError(#"{"continues":false,"parameters":{},"error":"a.B"}"#))
        #expect(isError(#" { "parameters" : { "a" : [ 1 , 2 ] } , "error" : "a.B" } "#))
        #expect(isError(#"{"error":"a.B"}"#))
    }

    @Test("does not mistake an error key or error text inside the parameters for an error reply")
    func nestedErrorIsNotAnError() {
        #expect(!isError(#"{"parameters":{"error":"not top level"}}"#))
        #expect(!isError(#"{"parameters":{"apps":[{"name":"\"error\":"}]},"continues":true}"#))
        #expect(!isError(#"{"parameters":{"apps":[{"name":"x\\"}],"state":"fresh"}}"#))
        #expect(!isError(#"{"continues":true,"parameters":{"x":{"error":1}}}"#))
        #expect(!isError(#"{}"#))
    }

    @Test("falls back to a full scan for shapes it cannot read from the ends, and still decides correctly")
    func unusualShapes() {
        #expect(isError(#"{"extra":[1,2],"parameters":{"a":1},"error":"a.B","more":[3]}"#))
        #expect(!isError(#"{"extra":[1,2],"parameters":{"a":1},"note":"error","more":[3]}"#))
        #expect(isError(#"{"extra":{"error":1},"error":"a.B"}"#))
        #expect(!isError(#"{"extra":{"error":1}}"#))
        #expect(isError(#"{"we\"ird":1,"error":"a.B"}"#))
    }
}
