/// The parameters of the Varlink errors SPEC §8 defines, decoded leniently: each error uses a few
/// of these, and a missing one must still yield a readable message rather than a decoding failure.
struct ErrorParameters: Decodable, Sendable, Equatable {
    var storefront: String?
    var host: String?
    var id: Int?
    var detail: String?
    var reason: String?
    var file: String?
    var line: Int?
    var column: Int?
    var message: String?
    /// `org.varlink.service.InvalidParameter`'s parameter name.
    var parameter: String?
    /// `org.varlink.service.MethodNotFound`'s method name.
    var method: String?
    /// `org.varlink.service.InterfaceNotFound`'s interface name.
    var interface: String?
}
