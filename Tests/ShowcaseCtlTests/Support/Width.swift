/// Terminal columns of a line, counting CJK characters as two: how the tests check alignment
/// independently of the client's own width code.
enum Width {
    static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { total, scalar in
            switch scalar.value {
            case 0x3040...0x30FF, 0x4E00...0x9FFF, 0xFF00...0xFF60: return total + 2
            default: return total + 1
            }
        }
    }

    static func of(_ text: Substring) -> Int { of(String(text)) }
}
