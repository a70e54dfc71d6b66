import ShowcaseAPI
import ShowcaseCore
import Varlink

/// The progress of `showcasectl roster --wait`: `waiting for de: warming, 4 s of 30 s`, the storefront's state
/// from `Roster.Health` (open to anyone who may read rosters, like the command itself) and the time waited.
final class WaitProgress: ProgressSource, @unchecked Sendable {
    private let connection: DaemonConnection
    private let code: String
    private let wait: Duration
    private let started = ContinuousClock.now

    /// Progress for a wait of `milliseconds` on `storefront`; nil when the daemon cannot be reached a second time.
    init?(socket: SocketLocation, storefront: Storefront, milliseconds: Int) {
        guard let connection = try? DaemonConnection(socket) else { return nil }
        self.connection = connection
        code = storefront.code
        wait = .milliseconds(milliseconds)
    }

    func next() -> String? {
        let waited = ContinuousClock.now - started
        let reply = try? connection.call(ShowcaseInterfaces.Method.health, timeout: .seconds(2))
        let health = reply.flatMap { try? RosterHealthReply(decoding: $0) }
        let state = health?.storefronts.first { $0.code == code }.map { "\($0.state.rawValue), " } ?? ""
        return "waiting for \(code): \(state)\(ProgressLine.spoken(waited)) of \(ProgressLine.spoken(wait))"
    }
}
