import Foundation
import ShowcaseCore
import Testing

@testable import ShowcaseDaemon

@Suite("Refresh queue")
struct RefreshQueueTests {
    let us = StorefrontEdition(TestBed.storefront("us"))
    let de = StorefrontEdition(TestBed.storefront("de"))
    let jp = StorefrontEdition(TestBed.storefront("jp"))
    let start = RefreshQueue.Moment(date: Date(timeIntervalSince1970: 1_800_000_000), instant: ContinuousClock.now)
    let day = RefreshSchedule(interval: .seconds(86_400), jitter: 0, retry: .seconds(300))
    let spacing = Duration.seconds(3)

    func later(_ duration: Duration) -> RefreshQueue.Moment {
        RefreshQueue.Moment(date: start.date.addingTimeInterval(duration.seconds), instant: start.instant + duration)
    }

    func due(_ queue: RefreshQueue, _ storefront: StorefrontEdition) -> ContinuousClock.Instant? {
        guard case .waiting(let due) = queue.entries[storefront]?.state else { return nil }
        return due
    }

    @Test("a cached roster is first refreshed at the end of its lifetime; missing ones one limiter slot apart")
    func firstScheduleFromCachedFetchTime() {
        var queue = RefreshQueue()
        let fetchedAt = start.date.addingTimeInterval(-3600)
        queue.keepWarm(us, fetchedAt: fetchedAt, at: start, schedule: day, spacing: spacing, unit: 0.5)
        queue.keepWarm(de, fetchedAt: nil, position: 0, at: start, schedule: day, spacing: spacing, unit: 0.5)
        queue.keepWarm(jp, fetchedAt: nil, position: 1, at: start, schedule: day, spacing: spacing, unit: 0.5)
        #expect(due(queue, us) == start.instant + .seconds(86_400 - 3600))
        #expect(due(queue, de) == start.instant)
        #expect(due(queue, jp) == start.instant + spacing)
        #expect(queue.nextJob(at: start.instant) == .run(de))
        let added = queue.keepWarm(us, fetchedAt: nil, at: start, schedule: day, spacing: spacing, unit: 0.5)
        #expect(!added)
    }

    @Test("jitter keeps the next refresh within interval ± jitter: unit 0 is the earliest, unit 1 the latest")
    func jitterBounds() {
        let schedule = RefreshSchedule(interval: .seconds(1000), jitter: 0.1, retry: .seconds(10))
        var queue = RefreshQueue()
        queue.requestNow(us)
        queue.requestNow(de)
        queue.begin(us)
        queue.begin(de)
        let early = queue.finish(us, .updated(changed: true), at: start, schedule: schedule, unit: 0)
        let late = queue.finish(de, .updated(changed: true), at: start, schedule: schedule, unit: 1)
        #expect(early == start.instant + .seconds(900))
        #expect(late == start.instant + .seconds(1100))
    }

    @Test("with jitter, storefronts refreshed together drift apart; without it they stay together")
    func jitterSpreads() {
        for (jitter, spread) in [(0.1, true), (0.0, false)] {
            let schedule = RefreshSchedule(interval: .seconds(1000), jitter: jitter, retry: .seconds(10))
            var queue = RefreshQueue()
            var dues: Set<ContinuousClock.Instant> = []
            for (storefront, unit) in zip([us, de, jp], [0.2, 0.5, 0.9]) {
                queue.requestNow(storefront)
                queue.begin(storefront)
                if let due = queue.finish(
                    storefront, .updated(changed: false), at: start, schedule: schedule, unit: unit)
                {
                    dues.insert(due)
                }
            }
            #expect(dues.count == (spread ? 3 : 1), "jitter \(jitter)")
        }
    }

    @Test("retries after failures double from refresh.retry up to the interval, and a success resets them")
    func retryDoublingCappedAtInterval() {
        let schedule = RefreshSchedule(interval: .seconds(3000), jitter: 0, retry: .seconds(300))
        var queue = RefreshQueue()
        var delays: [Duration] = []
        queue.requestNow(us)
        for _ in 1...6 {
            queue.begin(us)
            let failure = RefreshFailure(.httpStatus(500))
            if let due = queue.finish(us, .failed(failure), at: start, schedule: schedule, unit: 0.5) {
                delays.append(due - start.instant)
            }
        }
        #expect(delays == [300, 600, 1200, 2400, 3000, 3000].map { .seconds($0) })
        queue.begin(us)
        queue.finish(us, .updated(changed: false), at: start, schedule: schedule, unit: 0.5)
        #expect(queue.entries[us]?.failures == 0)
        queue.begin(us)
        let again = queue.finish(
            us, .failed(RefreshFailure(.timeout(.seconds(10)))), at: start, schedule: schedule, unit: 0.5)
        #expect(again == start.instant + .seconds(300))
    }

    @Test("a throttled answer's Retry-After is honoured, and capped at the interval")
    func retryAfterHonouredAndCapped() {
        var queue = RefreshQueue()
        queue.requestNow(us)
        queue.begin(us)
        let minute = RefreshFailure(.throttled(status: 429, retryAfter: .seconds(3600)))
        let honoured = queue.finish(us, .failed(minute), at: start, schedule: day, unit: 0.5)
        #expect(honoured == start.instant + .seconds(3600))
        queue.begin(us)
        let absurd = RefreshFailure(.throttled(status: 403, retryAfter: .seconds(30 * 86_400)))
        let capped = queue.finish(us, .failed(absurd), at: start, schedule: day, unit: 0.5)
        #expect(capped == start.instant + .seconds(86_400))
    }

    @Test("a query waiting on a storefront puts it before every other due one; expedite brings waiting ones forward")
    func prioritizeAndExpedite() {
        var queue = RefreshQueue()
        queue.keepWarm(us, fetchedAt: nil, position: 0, at: start, schedule: day, spacing: spacing, unit: 0.5)
        queue.keepWarm(
            de, fetchedAt: start.date, at: start, schedule: day, spacing: spacing, unit: 0.5)
        queue.keepWarm(jp, fetchedAt: start.date, at: start, schedule: day, spacing: spacing, unit: 0.5)
        #expect(queue.nextJob(at: start.instant) == .run(us))
        queue.prioritize(jp)
        #expect(queue.nextJob(at: start.instant) == .run(jp))
        queue.begin(jp)
        queue.prioritize(jp)
        #expect(queue.entries[jp]?.state == .running)
        queue.expedite([de], at: start.instant, spacing: spacing)
        #expect(due(queue, de) == start.instant)
        #expect(queue.nextJob(at: start.instant) == .run(de))
    }

    @Test("nothing due means sleep until the earliest due time; nothing queued means idle")
    func sleepAndIdle() {
        var queue = RefreshQueue()
        #expect(queue.nextJob(at: start.instant) == .idle)
        queue.keepWarm(us, fetchedAt: start.date, at: start, schedule: day, spacing: spacing, unit: 0.5)
        #expect(queue.nextJob(at: start.instant) == .sleep(until: start.instant + .seconds(86_400)))
        #expect(queue.nextJob(at: start.instant + .seconds(86_400)) == .run(us))
        #expect(queue.nextRefresh(us, at: start) == start.date.addingTimeInterval(86_400))
    }

    @Test("a storefront forgotten while its refresh runs leaves the queue when the refresh ends, unless kept again")
    func forgetWhileRunning() {
        var queue = RefreshQueue()
        queue.requestNow(us)
        queue.requestNow(de)
        let forgotten = queue.forget(de)
        #expect(forgotten)
        #expect(queue.entries[de] == nil)
        queue.begin(us)
        let forgottenNow = queue.forget(us)
        #expect(!forgottenNow)
        #expect(queue.entries[us]?.state == .runningForgotten)
        let dropped = queue.finish(us, .updated(changed: true), at: start, schedule: day, unit: 0.5)
        #expect(dropped == nil)
        #expect(queue.entries[us] == nil)

        queue.requestNow(jp)
        queue.begin(jp)
        _ = queue.forget(jp)
        queue.keepWarm(jp, fetchedAt: nil, at: start, schedule: day, spacing: spacing, unit: 0.5)
        #expect(queue.entries[jp]?.state == .running)
        let kept = queue.finish(jp, .updated(changed: true), at: start, schedule: day, unit: 0.5)
        #expect(kept != nil)
    }

    @Test("a refresh asked for while one runs shares it; asked for a waiting storefront makes it urgent")
    func requestNow() {
        var queue = RefreshQueue()
        queue.keepWarm(us, fetchedAt: start.date, at: start, schedule: day, spacing: spacing, unit: 0.5)
        queue.requestNow(us)
        #expect(queue.entries[us]?.state == .urgent)
        #expect(queue.nextRefresh(us, at: start) == start.date)
        queue.begin(us)
        queue.requestNow(us)
        #expect(queue.entries[us]?.state == .running)
    }

    @Test("a reload changing refresh.interval moves the next refresh after a fetch, not retries")
    func reloadChangesInterval() {
        var queue = RefreshQueue()
        queue.requestNow(us)
        queue.begin(us)
        queue.finish(us, .updated(changed: true), at: start, schedule: day, unit: 0.5)
        queue.requestNow(de)
        queue.begin(de)
        queue.finish(de, .failed(RefreshFailure(.httpStatus(500))), at: start, schedule: day, unit: 0.5)
        let hour = RefreshSchedule(interval: .seconds(3600), jitter: 0, retry: .seconds(60))
        let now = later(.seconds(600))
        queue.reschedule(at: now, schedule: hour)
        #expect(due(queue, us) == start.instant + .seconds(3600))
        #expect(due(queue, de) == start.instant + .seconds(300))
        queue.reschedule(at: later(.seconds(7200)), schedule: hour)
        #expect(due(queue, us) == start.instant + .seconds(7200))
    }
}

extension RefreshQueueTests {
    @Test("a refresh asked for while one runs, by a caller that wants a fetch after its call, runs right after it")
    func rerunAfterRunning() {
        let schedule = RefreshSchedule(interval: .seconds(3600), jitter: 0, retry: .seconds(300))
        var queue = RefreshQueue()
        queue.requestNow(us)
        queue.begin(us)
        #expect(queue.isRunning(us))
        // A query waiting on the roster joins the running refresh: nothing more is queued.
        queue.requestNow(us)
        let joined = queue.finish(us, .updated(changed: true), at: start, schedule: schedule, unit: 0.5)
        #expect(joined == start.instant + .seconds(3600))
        #expect(!queue.isUrgent(us))

        // Admin.Refresh while a refresh runs: its answer may predate the call, so one more follows at once.
        queue.requestNow(us)
        queue.begin(us)
        queue.requestAfterRunning(us)
        let rerun = queue.finish(us, .updated(changed: false), at: start, schedule: schedule, unit: 0.5)
        #expect(rerun == start.instant)
        #expect(queue.isUrgent(us))
        #expect(queue.nextJob(at: start.instant) == .run(us))
        // That one is an ordinary refresh: after it, the interval again.
        queue.begin(us)
        let after = queue.finish(us, .updated(changed: false), at: start, schedule: schedule, unit: 0.5)
        #expect(after == start.instant + .seconds(3600))

        // Asked for while idle, it is simply urgent.
        var idle = RefreshQueue()
        idle.requestAfterRunning(us)
        #expect(idle.isUrgent(us))
    }
}
