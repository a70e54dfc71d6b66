// STUB (interface contract): the core issue replaces the body with the full ISO 3166-1 table.

/// An App Store storefront, always held as its lowercase ISO 3166-1 alpha-2 code.
public struct Storefront: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Lowercase alpha-2 code, the only form the lookup endpoint honours (`de`, `jp`).
    public let code: String
    /// Uppercase alpha-3 code (`DEU`).
    public let alpha3: String
    /// English short name (`Germany`).
    public let name: String

    /// Parses an alpha-2 or alpha-3 code in any case. Unknown or non-App-Store codes throw.
    public init(parsing text: String) throws(StorefrontError) {
        switch text.lowercased() {
        case "us", "usa": self.init(code: "us", alpha3: "USA", name: "United States")
        case "de", "deu": self.init(code: "de", alpha3: "DEU", name: "Germany")
        case "jp", "jpn": self.init(code: "jp", alpha3: "JPN", name: "Japan")
        default: throw StorefrontError(text: text)
        }
    }

    private init(code: String, alpha3: String, name: String) {
        self.code = code
        self.alpha3 = alpha3
        self.name = name
    }

    /// Every App Store storefront, sorted by code.
    public static var all: [Storefront] { ["de", "jp", "us"].map { try! Storefront(parsing: $0) } }

    /// The storefront's primary language tag (`jp` → `ja`), used when a query names no locale.
    public var primaryLanguage: String { code == "jp" ? "ja" : code == "de" ? "de" : "en" }

    public var description: String { code }
    public static func < (lhs: Storefront, rhs: Storefront) -> Bool { lhs.code < rhs.code }
}

/// A storefront code that is not an App Store storefront: names the code so a typo is visible.
public struct StorefrontError: Error, Equatable, Sendable, CustomStringConvertible {
    public let text: String
    public var description: String {
        "'\(text)' is not an App Store storefront code (use alpha-2 like 'de' or alpha-3 like 'DEU')"
    }
}
