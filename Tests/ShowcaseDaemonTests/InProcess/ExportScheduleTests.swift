import Testing

@testable import ShowcaseDaemon

@Suite("Export schedule: debounce, urgency, one more pass, calls answered by a pass that starts after them")
struct ExportScheduleTests {
    let start = ContinuousClock.now
    let debounce = Duration.milliseconds(200)

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test("nothing triggered is idle")
    func idle() {
        #expect(ExportSchedule(debounce: debounce).next(now: start) == .idle)
    }

    @Test("a burst within the debounce is one pass, due the debounce after its first trigger")
    func burstIsOnePass() {
        var schedule = ExportSchedule(debounce: debounce)
        schedule.trigger(urgent: false, now: at(0))
        #expect(schedule.next(now: at(0)) == .sleep(until: at(200)))
        schedule.trigger(urgent: false, now: at(50))
        schedule.trigger(urgent: false, now: at(199))
        #expect(schedule.next(now: at(199)) == .sleep(until: at(200)), "a later trigger does not push the pass back")
        #expect(schedule.next(now: at(200)) == .run)
        schedule.passStarted(now: at(200))
        #expect(schedule.next(now: at(201)) == .idle, "no second pass while the first runs")
        #expect(schedule.passEnded(now: at(300)).isEmpty)
        #expect(schedule.next(now: at(300)) == .idle, "every trigger of the burst was covered")
    }

    @Test("an urgent trigger runs at once, idle or in a debounce, and waits only for the running pass")
    func urgentRunsAtOnce() {
        var schedule = ExportSchedule(debounce: debounce)
        schedule.trigger(urgent: true, now: at(0))
        #expect(schedule.next(now: at(0)) == .run)
        schedule.passStarted(now: at(0))
        _ = schedule.passEnded(now: at(10))
        schedule.trigger(urgent: false, now: at(20))
        #expect(schedule.next(now: at(20)) == .sleep(until: at(220)))
        schedule.trigger(urgent: true, now: at(30))
        #expect(schedule.next(now: at(30)) == .run, "a reload cuts the debounce short")
        schedule.passStarted(now: at(30))
        schedule.trigger(urgent: true, now: at(40))
        #expect(schedule.next(now: at(40)) == .idle, "passes never overlap")
        _ = schedule.passEnded(now: at(50))
        #expect(schedule.next(now: at(50)) == .run)
        schedule.passStarted(now: at(50))
        _ = schedule.passEnded(now: at(60))
        #expect(schedule.next(now: at(60)) == .idle, "urgency is spent by the pass it started")
        schedule.trigger(urgent: false, now: at(70))
        #expect(schedule.next(now: at(70)) == .sleep(until: at(270)))
    }

    @Test("triggers during a pass give exactly one more, debounced from the end of the pass")
    func oneMorePass() {
        var schedule = ExportSchedule(debounce: debounce)
        schedule.trigger(urgent: true, now: at(0))
        schedule.passStarted(now: at(0))
        for millisecond in [100, 500, 900] { schedule.trigger(urgent: false, now: at(millisecond)) }
        _ = schedule.passEnded(now: at(1000))
        #expect(schedule.next(now: at(1000)) == .sleep(until: at(1200)))
        #expect(schedule.next(now: at(1200)) == .run)
        schedule.passStarted(now: at(1200))
        _ = schedule.passEnded(now: at(1300))
        #expect(schedule.next(now: at(5000)) == .idle, "one more pass, not one per trigger")
    }

    @Test("a call is answered by the next pass that starts after it, not by the one running when it came")
    func callAnsweredByALaterPass() {
        var schedule = ExportSchedule(debounce: debounce)
        schedule.call(1, now: at(0))
        #expect(schedule.next(now: at(0)) == .run)
        schedule.passStarted(now: at(0))
        schedule.call(2, now: at(10))
        #expect(schedule.callCount == 2)
        #expect(schedule.passEnded(now: at(20)) == [1], "the running pass started before call 2")
        #expect(schedule.next(now: at(20)) == .run, "call 2 does not wait for a debounce")
        schedule.call(3, now: at(25))
        schedule.passStarted(now: at(30))
        #expect(schedule.passEnded(now: at(40)) == [2, 3])
        #expect(schedule.callCount == 0)
        #expect(schedule.next(now: at(40)) == .idle)
    }
}
