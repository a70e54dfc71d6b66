import ShowcaseCore

/// The storefronts the contract's samples use, parsed once.
extension Storefront {
    static let de = try! Storefront(parsing: "de")
    static let us = try! Storefront(parsing: "us")
    static let jp = try! Storefront(parsing: "jp")
    static let ca = try! Storefront(parsing: "ca")
}
