import FoundationEssentials
import ShowcaseAPI
import ShowcaseCore
import Varlink

/// `showcasectl check [--max-age DURATION]`: a monitoring plugin over `Roster.Health`, which needs no admin
/// rights, so a member of the socket's group (the usual Icinga/Nagios/Sensu agent user) can run it.
///
/// Prints exactly one line to stdout and returns the plugin's exit status (``HealthCheck``). Whatever keeps it
/// from reading an answer — no daemon, no permission on the socket, an error reply, a reply it cannot decode —
/// is `SHOWCASE UNKNOWN` and 3, never the 69/77 of the other commands, which a monitoring system would misread.
/// With `--json` the line is the Health reply's parameters instead; the exit status is the same.
func checkCommand(maxAge: Duration?, options: GlobalOptions, environment: [String: String], console: Console)
    -> Int32
{
    let reply: JSONValue
    do {
        let socket = try SocketPath.resolve(options, environment: environment)
        reply = try DaemonConnection(socket).call(ShowcaseInterfaces.Method.health, timeout: .seconds(10))
    } catch {
        console.line(HealthCheck.unknown(error.message).escapingControlCharacters())
        return HealthCheck.Outcome.unknown.rawValue
    }
    let decoded: RosterHealthReply
    do {
        decoded = try RosterHealthReply(decoding: reply)
    } catch {
        console.line(
            HealthCheck.unknown(
                "could not read the daemon's Health reply (\(error)); showcasectl and showcased versions differ? "
                    + "compare with: showcasectl version"
            ).escapingControlCharacters())
        return HealthCheck.Outcome.unknown.rawValue
    }
    let check = HealthCheck(decoded, maxAge: maxAge)
    // The plugin line is never coloured, so it is escaped whole: one line, whatever the daemon's text holds.
    console.line(
        options.json ? String(decoding: reply.serialized(), as: UTF8.self) : check.line.escapingControlCharacters())
    return check.outcome.rawValue
}
