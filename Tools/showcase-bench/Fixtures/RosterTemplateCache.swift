import Foundation

/// The roster templates cut so far, by app count and price mode, so generating 173 storefronts builds and cuts
/// the 200 rows once, not 173 times. Used from one thread at a time; the lock only keeps that assumption from
/// being load-bearing.
final class RosterTemplateCache: @unchecked Sendable {
    private let lock = NSLock()
    private var templates: [Int: RosterTemplate] = [:]

    func template(_ key: Int) -> RosterTemplate? { lock.withLock { templates[key] } }

    func store(_ template: RosterTemplate, _ key: Int) { lock.withLock { templates[key] = template } }
}

/// A roster text cut where a storefront's values go: `pieces[i]`, then the value of pattern `holes[i]`, and so
/// on, with one piece more than holes.
struct RosterTemplate {
    var pieces: [[UInt8]] = []
    var holes: [Int] = []
}
