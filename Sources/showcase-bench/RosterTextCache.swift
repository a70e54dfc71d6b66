import Foundation

/// The generated `us` roster text per app count, so generating 175 storefronts clones 200 rows once, not
/// 175 times. Used from one thread at a time; the lock only keeps that assumption from being load-bearing.
final class RosterTextCache: @unchecked Sendable {
    private let lock = NSLock()
    private var texts: [Int: String] = [:]

    func text(apps: Int) -> String? { lock.withLock { texts[apps] } }

    func store(_ text: String, apps: Int) { lock.withLock { texts[apps] = text } }
}
