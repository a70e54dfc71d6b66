/// True for exactly one caller: whichever of "refresh finished" and "waitMs elapsed" comes first answers.
final class OnceFlag: Sendable {
    private let claimed = NSLockedBox(false)

    func claim() -> Bool {
        claimed.withLock { value in
            defer { value = true }
            return !value
        }
    }
}
