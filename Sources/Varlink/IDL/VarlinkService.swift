/// What a Varlink server serves: identification for `org.varlink.service.GetInfo` and the
/// registered interfaces. `org.varlink.service` itself is built in.
public struct VarlinkService: Sendable {
    /// Who makes the service (`GetInfo.vendor`).
    public let vendor: String
    /// The program's name (`GetInfo.product`).
    public let product: String
    /// The program's version (`GetInfo.version`).
    public let version: String
    /// Where to read about the service (`GetInfo.url`); may be empty.
    public let url: String
    private(set) var interfaces: [String: VarlinkInterface] = [:]
    private(set) var interfaceOrder: [String] = []
    /// Fully qualified method name → route, so dispatch is one dictionary lookup.
    private(set) var routes: [String: VarlinkInterface.Route] = [:]
    /// Calls dispatched per method, shared by every copy of this service (the server's included).
    public let callCounts = VarlinkCallCounts()

    /// The IDL of `org.varlink.service`, as the Varlink specification defines it.
    public static let serviceIDL = """
        # The Varlink Service Interface is provided by every varlink service. It
        # describes the service and the interfaces it implements.
        interface org.varlink.service

        # Get a list of all the interfaces a service provides and information
        # about the implementation.
        method GetInfo() -> (
          vendor: string,
          product: string,
          version: string,
          url: string,
          interfaces: []string
        )

        # Get the description of an interface that is implemented by this service.
        method GetInterfaceDescription(interface: string) -> (description: string)

        # The requested interface was not found.
        error InterfaceNotFound (interface: string)

        # The requested method was not found
        error MethodNotFound (method: string)

        # The interface defines the requested method, but the service does not
        # implement it.
        error MethodNotImplemented (method: string)

        # One of the passed parameters is invalid.
        error InvalidParameter (parameter: string)

        # Client is denied access
        error PermissionDenied ()

        # Method is expected to be called with 'more' set to true, but wasn't
        error ExpectedMore ()

        """

    /// A service with only `org.varlink.service`; `add` registers the others.
    public init(vendor: String, product: String, version: String, url: String) {
        self.vendor = vendor
        self.product = product
        self.version = version
        self.url = url
        // Placeholders that declare the methods; `add` installs the real routes, which need
        // the full interface list.
        var builtin = try! VarlinkInterface(idl: VarlinkService.serviceIDL)
        try! builtin.handle("GetInfo") { _, _ in }
        try! builtin.handle("GetInterfaceDescription") { _, _ in }
        try! add(builtin)
    }

    /// Registers `interface`; throws `.invalidInterface` if one with that name exists.
    public mutating func add(_ interface: VarlinkInterface) throws(VarlinkError) {
        guard interfaces[interface.name] == nil else {
            throw VarlinkError(
                code: .invalidInterface, detail: "Interface \(interface.name) is registered twice; register it once.")
        }
        interfaces[interface.name] = interface
        interfaceOrder.append(interface.name)
        for (method, route) in interface.routes {
            let name = interface.name + "." + method
            routes[name] = VarlinkInterface.Route(
                handler: route.handler, requiresMore: route.requiresMore, keptAnswer: route.keptAnswer,
                calls: callCounts.counter(for: name))
        }
        rebuildServiceRoutes()
    }

    /// Interface names in registration order (`org.varlink.service` first).
    public var interfaceNames: [String] { interfaceOrder }

    /// The IDL text of `interface`, if registered.
    public func description(of interface: String) -> String? { interfaces[interface]?.idl.text }

    private mutating func rebuildServiceRoutes() {
        let info: JSONValue = .object([
            "vendor": .string(vendor), "product": .string(product), "version": .string(version),
            "url": .string(url), "interfaces": .array(interfaceOrder.map { .string($0) }),
        ])
        let encodedInfo = EncodedReply(parameters: info)
        routes["org.varlink.service.GetInfo"] = VarlinkInterface.Route(
            handler: { _, responder in responder.reply(encodedInfo) }, requiresMore: false,
            calls: callCounts.counter(for: "org.varlink.service.GetInfo"))
        let descriptions = interfaces.mapValues { EncodedReply(parameters: ["description": .string($0.idl.text)]) }
        routes["org.varlink.service.GetInterfaceDescription"] = VarlinkInterface.Route(
            handler: { call, responder throws(VarlinkError) in
                let name = try call.string("interface")
                guard let reply = descriptions[name] else { throw .interfaceNotFound(name) }
                responder.reply(reply)
            }, requiresMore: false, calls: callCounts.counter(for: "org.varlink.service.GetInterfaceDescription"))
    }

    /// Resolves a fully qualified method to its route or the standard error for it.
    func route(for method: String) -> Result<VarlinkInterface.Route, VarlinkError> {
        if let route = routes[method] { return .success(route) }
        guard let dot = method.lastIndex(of: "."), dot != method.startIndex else {
            return .failure(.methodNotFound(method))
        }
        let interfaceName = String(method[..<dot])
        guard let interface = interfaces[interfaceName] else { return .failure(.interfaceNotFound(interfaceName)) }
        let name = String(method[method.index(after: dot)...])
        if interface.idl.methods.contains(name) { return .failure(.methodNotImplemented(method)) }
        return .failure(.methodNotFound(method))
    }
}
