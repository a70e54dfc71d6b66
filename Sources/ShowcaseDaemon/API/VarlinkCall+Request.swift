import ShowcaseAPI
import Varlink

extension VarlinkCall {
    /// The call's parameters as the contract's request type `T` (``RosterGetRequest`` and its siblings): a missing,
    /// mistyped or out-of-range parameter is `org.varlink.service.InvalidParameter` naming it, a storefront code
    /// that is none `UnknownStorefront` naming the code as written (``APIDecodingError/varlinkError``).
    func request<T: APIValue>(_ type: T.Type) throws(VarlinkError) -> T {
        do { return try T(decoding: .object(parameters)) } catch { throw error.varlinkError }
    }
}
