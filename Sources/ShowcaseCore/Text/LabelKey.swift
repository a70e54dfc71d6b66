/// A word or phrase showcased writes itself (SPEC §19), by the key an overlay's `labels` names it with. Each key's
/// English text and where it appears are in ``english`` and ``note``; the other languages are in `LabelTable`.
/// Placeholders in braces (`{developer}`) are filled by the renderer; a translation keeps them.
public enum LabelKey: String, CaseIterable, Sendable, Hashable {
    /// Atom feed title.
    case feedTitle = "feed_title"
    /// Atom summary of an app that appeared.
    case feedAdded = "feed_added"
    /// Atom summary of an app that appeared, with its price.
    case feedAddedPrice = "feed_added_price"
    /// Atom summary of an app that is no longer listed.
    case feedRemoved = "feed_removed"
    /// Atom summary of a new version.
    case feedUpdated = "feed_updated"
    /// Atom summary of a price change.
    case feedPrice = "feed_price"
    /// Heading of the other apps of a developer (site app page, email, widget).
    case moreFrom = "more_from"
    /// Site developer page's heading.
    case appsBy = "apps_by"
    /// Section heading for iPhone/iPad apps on the developer page.
    case iosApps = "ios_apps"
    /// Section heading for Mac apps on the developer page.
    case macApps = "mac_apps"
    /// "What's new" heading of an app page.
    case whatsNew = "whats_new"
    /// A version line: "Version {version}".
    case version = "version"
    /// Heading of the earlier versions on an app page.
    case earlierVersions = "earlier_versions"
    /// Link to an app's support page, and its title.
    case support = "support"
    /// Link to an app's privacy policy, and its title.
    case privacy = "privacy"
    /// Heading/label of the storefront switcher.
    case storefronts = "storefronts"
    /// Link from an app page back to the developer page.
    case allApps = "all_apps"
    /// The call to action on an app page's store link: "View in the {store}".
    case viewInStore = "view_in_store"
    /// The accessible name of an app's link in the fragment, the email variant and the widget: "{name}, {store}".
    case appLink = "app_link"

    /// The English text, the fallback for every language the table lacks.
    public var english: String {
        switch self {
        case .feedTitle: "{developer}: what changed on the {store}, {place}"
        case .feedAdded: "New: {name}"
        case .feedAddedPrice: "New: {name} ({price})"
        case .feedRemoved: "{name} is no longer listed"
        case .feedUpdated: "{name} version {version}"
        case .feedPrice: "{name}: {price} (was {previous})"
        case .moreFrom: "More from {developer}"
        case .appsBy: "Apps by {developer}"
        case .iosApps: "iPhone and iPad apps"
        case .macApps: "Mac apps"
        case .whatsNew: "What’s new"
        case .version: "Version {version}"
        case .earlierVersions: "Earlier versions"
        case .support: "Support"
        case .privacy: "Privacy policy"
        case .storefronts: "Other countries and languages"
        case .allApps: "All apps by {developer}"
        case .viewInStore: "View in the {store}"
        case .appLink: "{name}, {store}"
        }
    }

    /// The placeholders the English text fills (`developer`, `store`): all a translation or an overlay's label may
    /// name.
    public var placeholders: Set<String> { Set(LabelText.placeholders(in: english)) }

    /// Where it appears, for a translator.
    public var note: String {
        switch self {
        case .feedTitle: "Atom feed <title>; {store} is App Store or Mac App Store, {place} the storefront (CA (fr))"
        case .feedAdded: "Atom entry summary when an app appeared"
        case .feedAddedPrice: "Atom entry summary when an app appeared, with its formatted price"
        case .feedRemoved: "Atom entry summary when an app left the storefront"
        case .feedUpdated: "Atom entry summary of a new version"
        case .feedPrice: "Atom entry summary of a price change; {previous} is the old formatted price"
        case .moreFrom: "heading above a developer's other apps (site app page)"
        case .appsBy: "site developer page <title> and <h1>"
        case .iosApps: "site developer page section heading"
        case .macApps: "site developer page section heading"
        case .whatsNew: "site app page heading over the release notes"
        case .version: "site app page: one version line"
        case .earlierVersions: "site app page heading over earlier versions"
        case .support: "site app page link and support page title"
        case .privacy: "site app page link and privacy page title"
        case .storefronts: "site storefront switcher's heading"
        case .allApps: "site app page link back to the developer page"
        case .viewInStore: "site app page store link text"
        case .appLink: "what a screen reader says for an app's row (fragment, email, widget); keep {name} first"
        }
    }
}
