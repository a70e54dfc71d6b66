/// Where a store link is shown (SPEC §19): each surface may carry its own campaign token
/// (`attribution.campaign_tokens`) and Custom Product Page (overlay `product_pages`), so App Analytics tells
/// which surface sold an app.
public enum AttributionSurface: String, Sendable, CaseIterable, Hashable {
    /// `Roster.Get`, `GetApp`, `Watch` and `Changes` replies.
    case varlink
    /// The export's JSON documents, and the widget that renders them.
    case json
    /// The HTML fragments (`<platform>.html`).
    case html
    /// The email variant (`<platform>.email.html`).
    case email
    /// The Atom feeds (`<platform>.atom`).
    case feed
    /// The site pages of SPEC §18 (accepted and validated before those pages exist).
    case site

    /// The surface names as the configuration spells them, in declaration order.
    public static let names = allCases.map(\.rawValue)
}
