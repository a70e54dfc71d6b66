import Foundation

/// The generated `us` roster text per app count, so generating 175 storefronts clones 200 rows once, not
/// 175 times. Used from one thread at a time; the lock only keeps that assumption from being load-bearing.
final class RosterTextCache: @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [Int: String] = [:]
    private var templates: [Int: RosterTemplate] = [:]

    func text(apps: Int) -> String? { lock.withLock { texts[apps] } }

    func store(_ text: String, apps: Int) { lock.withLock { texts[apps] = text } }

    func template(_ key: Int) -> RosterTemplate? { lock.withLock { templates[key] } }

    func store(_ template: RosterTemplate, _ key: Int) { lock.withLock { templates[key] = template } }
}

/// A roster text cut where a storefront's values go: `pieces[i]`, then the value of pattern `holes[i]`, and so
/// on, with one piece more than holes.
struct RosterTemplate {
    var pieces: [[UInt8]] = []
    var holes: [Int] = []
}
