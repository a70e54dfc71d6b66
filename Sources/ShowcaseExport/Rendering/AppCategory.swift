/// The schema.org `applicationCategory` Google's software-app documentation lists, for an App Store genre id
/// (`primaryGenreId`).
///
/// Games (6014 and its subgenres 7001–7019; on the Mac App Store, whose apps carry their own ids, 12006 and
/// 12201–12222) are `GameApplication`; every other genre maps to the closest value of Google's list, and a genre
/// nothing there fits (News, Magazines & Newspapers) or an id Apple may add later has no category: structured
/// data is better without the property than with a wrong one.
enum AppCategory {
    /// Google's list, for checks: every value ``schemaOrg(genreId:)`` can answer is one of these.
    static let googleValues: Set<String> = [
        "GameApplication", "SocialNetworkingApplication", "TravelApplication", "ShoppingApplication",
        "SportsApplication", "LifestyleApplication", "BusinessApplication", "DesignApplication",
        "DeveloperApplication", "DriverApplication", "EducationalApplication", "HealthApplication",
        "FinanceApplication", "SecurityApplication", "BrowserApplication", "CommunicationApplication",
        "DesktopEnhancementApplication", "EntertainmentApplication", "MultimediaApplication", "HomeApplication",
        "UtilitiesApplication", "ReferenceApplication",
    ]

    /// The category of App Store genre `genreId`, or nil when none of Google's fits.
    static func schemaOrg(genreId: Int?) -> String? {
        guard let genreId else { return nil }
        if genreId == 6014 || (7001...7019).contains(genreId) || genreId == 12006 || (12201...12222).contains(genreId) {
            return "GameApplication"
        }
        return byGenre[genreId]
    }

    private static let byGenre: [Int: String] = [
        6000: "BusinessApplication",  // Business
        6001: "UtilitiesApplication",  // Weather
        6002: "UtilitiesApplication",  // Utilities
        6003: "TravelApplication",  // Travel
        6004: "SportsApplication",  // Sports
        6005: "SocialNetworkingApplication",  // Social Networking
        6006: "ReferenceApplication",  // Reference
        6007: "BusinessApplication",  // Productivity
        6008: "MultimediaApplication",  // Photo & Video
        6010: "TravelApplication",  // Navigation
        6011: "MultimediaApplication",  // Music
        6012: "LifestyleApplication",  // Lifestyle
        6013: "HealthApplication",  // Health & Fitness
        6015: "FinanceApplication",  // Finance
        6016: "EntertainmentApplication",  // Entertainment
        6017: "EducationalApplication",  // Education
        6018: "ReferenceApplication",  // Books
        6020: "HealthApplication",  // Medical
        6022: "ShoppingApplication",  // Catalogs
        6023: "LifestyleApplication",  // Food & Drink
        6024: "ShoppingApplication",  // Shopping
        6025: "EntertainmentApplication",  // Stickers
        6026: "DeveloperApplication",  // Developer Tools
        6027: "DesignApplication",  // Graphics & Design
        12001: "BusinessApplication",  // Mac: Business
        12002: "DeveloperApplication",  // Mac: Developer Tools
        12003: "EducationalApplication",  // Mac: Education
        12004: "EntertainmentApplication",  // Mac: Entertainment
        12005: "FinanceApplication",  // Mac: Finance
        12007: "HealthApplication",  // Mac: Health & Fitness
        12008: "LifestyleApplication",  // Mac: Lifestyle
        12010: "HealthApplication",  // Mac: Medical
        12011: "MultimediaApplication",  // Mac: Music
        12013: "MultimediaApplication",  // Mac: Photography
        12014: "BusinessApplication",  // Mac: Productivity
        12015: "ReferenceApplication",  // Mac: Reference
        12016: "SocialNetworkingApplication",  // Mac: Social Networking
        12017: "SportsApplication",  // Mac: Sports
        12018: "TravelApplication",  // Mac: Travel
        12019: "UtilitiesApplication",  // Mac: Utilities
        12020: "MultimediaApplication",  // Mac: Video
        12021: "UtilitiesApplication",  // Mac: Weather
        12022: "DesignApplication",  // Mac: Graphics & Design
    ]
}
