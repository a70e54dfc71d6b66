@preconcurrency import Glibc
import ShowcaseConfig
import ShowcaseCore

/// Keeps `metrics.textfile` rewritten (atomically, by ``MetricsTextfile``) every `metrics.interval`, for
/// node_exporter's textfile collector. Does nothing while no textfile is configured.
///
/// The settings are read from the current configuration before each write, and checked once a second, so a
/// reload that sets, moves or re-times the file takes effect within a second rather than after the old interval.
/// A failed write is logged (the log condenses repeats) and retried at the next interval; it stops nothing else.
struct MetricsTextfileService: LifecycleService {
    /// The state whose current configuration holds the `metrics.*` settings.
    let state: StateOwner
    /// The clock the writes are paced by.
    let clock: any ShowcaseClock
    /// Where a failed write, and the first good one after it, is logged.
    let log: DaemonLog
    /// The figures as of now (the Varlink call counts included).
    let snapshot: @Sendable () -> MetricsSnapshot

    /// How often the settings are checked for a reload's changes.
    static let settingsCheck = Duration.seconds(1)

    func run(until shutdown: ShutdownSignal) async {
        let (state, clock, log, snapshot) = (state, clock, log, snapshot)
        await shutdown.cancelling {
            var written: (settings: MetricsSettings, at: ContinuousClock.Instant, failed: Bool)?
            while !Task.isCancelled {
                let settings = state.config.configuration.metrics
                let due = written.map { $0.settings != settings || clock.instant - $0.at >= settings.interval }
                if let path = settings.textfile, due ?? true {
                    let failed = await Self.write(path, snapshot: snapshot, log: log)
                    if let previous = written, previous.failed, !failed, previous.settings.textfile == path {
                        log.notice("wrote the metrics textfile \(path) again")
                    }
                    written = (settings, clock.instant, failed)
                } else if settings.textfile == nil {
                    written = (settings, clock.instant, false)
                }
                do { try await clock.sleep(for: min(settings.interval, Self.settingsCheck)) } catch { return }
            }
        }
    }

    /// Renders the metrics and writes them to `path` off the cooperative pool (the write ends in `fsync`);
    /// returns whether it failed, after logging why.
    private static func write(_ path: String, snapshot: () -> MetricsSnapshot, log: DaemonLog) async -> Bool {
        let text = PrometheusExposition.render(snapshot())
        let outcome = await offload { () -> MetricsTextfileError? in
            do throws(MetricsTextfileError) {
                try MetricsTextfile(path: path).write(text)
                return nil
            } catch {
                return error
            }
        }
        guard let outcome else { return false }
        log.warning(
            "\(outcome.description); metrics stay available with: showcasectl metrics",
            fields: [.error: "\(outcome.step): \(String(cString: strerror(outcome.code)))"])
        return true
    }
}
