import ShowcaseCore
import Testing

@Suite("Progress lines")
struct ProgressLineTests {
    @Test("a cold warm of 176 rosters at 20/min says about 9 min from its first line")
    func coldWarm() {
        let line = ProgressLine(
            done: 0, total: 176, nextRequestIn: .seconds(3), requestsLeft: 176, requestsPerMinute: 20)
        #expect(line.timeLeft == .seconds(3) + .seconds(3) * 175)
        #expect(line.text == "0/176 storefronts, next request in 3 s, about 9 min left")
    }

    @Test("the parts that do not apply are left out, and done never reads past total")
    func parts() {
        #expect(ProgressLine(done: 12, total: 176, requestsLeft: 0, requestsPerMinute: 20).text == "12/176 storefronts")
        #expect(ProgressLine(done: 9, total: 3, requestsLeft: 0, requestsPerMinute: 20).text == "3/3 storefronts")
        let one = ProgressLine(done: 2, total: 3, unit: "rosters", requestsLeft: 1, requestsPerMinute: 20)
        #expect(one.text == "2/3 rosters, about 0 s left")
    }

    @Test("waits read in whole seconds rounded up, longer times in minutes and hours")
    func spoken() {
        let cases: [(Duration, String)] = [
            (.milliseconds(200), "1 s"), (.seconds(59), "59 s"), (.seconds(89), "1 min"), (.seconds(90), "2 min"),
            (.seconds(3600), "1 h"), (.seconds(3900), "1 h 5 min"),
        ]
        for (duration, text) in cases {
            let line = ProgressLine(
                done: 0, total: 1, nextRequestIn: duration, requestsLeft: 0, requestsPerMinute: 20)
            #expect(line.text == "0/1 storefronts, next request in \(text)", "\(duration)")
        }
    }

    @Test("on a terminal each update rewrites the line and finish clears it; disabled, nothing is written")
    func terminal() {
        var written: [String] = []
        var progress = TerminalProgress(isEnabled: true) { written.append($0) }
        progress.update(ProgressLine(done: 1, total: 2, requestsLeft: 0, requestsPerMinute: 20))
        progress.finish()
        progress.finish()
        #expect(written == ["\r1/2 storefronts\u{1b}[K", "\r\u{1b}[K"])

        var silent: [String] = []
        var off = TerminalProgress(isEnabled: false) { silent.append($0) }
        off.update(ProgressLine(done: 1, total: 2, requestsLeft: 0, requestsPerMinute: 20))
        off.finish()
        #expect(silent.isEmpty)
    }

    @Test("a line of the caller's own is shown in place too, its control characters escaped")
    func ownText() {
        var written: [String] = []
        var progress = TerminalProgress(isEnabled: true) { written.append($0) }
        progress.update("waiting for d\u{1b}[2Je: warming, 4 s of 30 s")
        progress.finish()
        #expect(written == ["\rwaiting for d\\x1b[2Je: warming, 4 s of 30 s\u{1b}[K", "\r\u{1b}[K"])
    }
}
