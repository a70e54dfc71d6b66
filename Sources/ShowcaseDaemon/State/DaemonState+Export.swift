import ShowcaseExport

/// The export's transitions: when a pass runs (``DaemonState/exportSchedule``) and what passes remember
/// (``DaemonState/exportBook``). The ``Exporter`` carries them out: it asks the schedule for the next step, starts a
/// pass from what the last one carried, and ends it with what it carries to the next; `Admin.Export` calls wait
/// here, and the end of the pass that answers them returns their replies.
extension DaemonState {
    /// The export tree may be out of date as of `now` for `reason`: a pass follows, at once for a configuration
    /// change, after the schedule's debounce for a roster change. ``StateOwner`` hands every transition's
    /// ``StateChange/export`` here, in the same critical section.
    mutating func exportWanted(_ reason: StateChange.ExportReason, at now: ContinuousClock.Instant) -> StateChange {
        exportSchedule.trigger(urgent: reason == .configuration, now: now)
        return StateChange(exportScheduleChanged: true)
    }

    /// An `Admin.Export` call came at `now`, waiting on `continuation`: booked, it is answered by a pass that starts
    /// after it, which runs at once.
    mutating func exportCalled(_ continuation: ExportBook.Continuation, at now: ContinuousClock.Instant) -> StateChange
    {
        exportSchedule.call(exportBook.book(continuation), now: now)
        return StateChange(exportScheduleChanged: true)
    }

    /// The exporter started a pass at `now`: it covers every trigger so far and answers every call waiting. Returns
    /// what the pass starts from (a copy: the pass hands back its own in ``exportEnded(_:at:)``).
    mutating func exportStarted(at now: ContinuousClock.Instant) -> (ExportBook.Carried, StateChange) {
        exportSchedule.passStarted(now: now)
        return (exportBook.carried, StateChange(exportScheduleChanged: true))
    }

    /// The exporter's pass ended at `now` with `outcome` (nil: no export configured, nothing written): it is the last
    /// pass, the next starts from what it carried, and the calls it answers get its report
    /// (``StateChange/exportReplies``). Triggers that came during it start their debounce now.
    mutating func exportEnded(_ outcome: ExportBook.Outcome?, at now: ContinuousClock.Instant) -> StateChange {
        let answered = exportSchedule.passEnded(now: now)
        if let outcome { exportBook.passed(outcome) }
        return StateChange(
            exportScheduleChanged: true, exportReplies: exportBook.answer(answered, with: outcome?.pass.report))
    }

    /// A pass outside the schedule (a one-shot run's) ended with `outcome`: it is the last pass, and the next starts
    /// from what it carried. Nobody is told.
    mutating func exportPassed(_ outcome: ExportBook.Outcome) -> StateChange {
        exportBook.passed(outcome)
        return .none
    }

    /// The running pass built a roster whose apps lack the icons `requests` name: they are asked for when its
    /// writer is done (``takeAskedIcons()``). Nobody is told now.
    mutating func iconsAsked(_ requests: [IconFetcher.Request]) -> StateChange {
        exportBook.asked(icons: requests)
        return .none
    }

    /// The icons the running pass's writer asked for, taken off the books (the next pass starts with none).
    mutating func takeAskedIcons() -> ([IconFetcher.Request], StateChange) {
        (exportBook.takeAskedIcons(), .none)
    }

    /// A one-shot run read the icon index from `directory` and dropped the files no longer in the tree: its pass
    /// starts from `index`. Nobody is told.
    mutating func iconIndexChecked(_ index: IconIndex, in directory: String) -> StateChange {
        exportBook.keep(icons: index, in: directory)
        return .none
    }
}
