import ShowcaseCore

/// `WATCHDOG=1` at half of systemd's `WatchdogSec=`, and only while the Varlink loop answers a call of its own
/// within a quarter of the period (``ServerProbe``): a loop stuck in a handler misses the ping and systemd
/// restarts the service. Does nothing when systemd expects no watchdog.
struct WatchdogService: LifecycleService {
    /// Where `WATCHDOG=1` goes, and how often systemd expects it.
    let notifier: SystemdNotifier
    /// The probe of the server's loop.
    let probe: ServerProbe
    /// The clock the pings are paced by.
    let clock: any ShowcaseClock

    func run(until shutdown: ShutdownSignal) async {
        guard notifier.isEnabled, let interval = notifier.watchdogInterval else { return }
        let (notifier, probe, clock) = (notifier, probe, clock)
        let period = max(interval / 2, .milliseconds(1))
        await shutdown.cancelling {
            while !Task.isCancelled {
                if await offload(probe.isAnswering) { notifier.watchdog() }
                do { try await clock.sleep(for: period) } catch { return }
            }
        }
    }
}
