extension String {
    /// Columns the string occupies on a terminal: East Asian wide characters and emoji take two,
    /// combining marks none. Japanese app names would otherwise break the table's alignment.
    var displayWidth: Int {
        reduce(0) { $0 + $1.displayWidth }
    }

    /// Pads with spaces on the right to `width` columns (never truncates).
    func padding(to width: Int) -> String {
        let own = displayWidth
        return own >= width ? self : self + String(repeating: " ", count: width - own)
    }

    /// Pads with spaces on the left to `width` columns, for numbers.
    func leftPadding(to width: Int) -> String {
        let own = displayWidth
        return own >= width ? self : String(repeating: " ", count: width - own) + self
    }

    /// Cuts the string to at most `width` columns, ending in "…" when something was cut.
    func truncated(toWidth width: Int) -> String {
        guard displayWidth > width, width > 0 else { return self }
        var result = ""
        var used = 0
        for character in self {
            let next = character.displayWidth
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        // "Notizen…", not "Notizen …": a space before the ellipsis reads as a missing word.
        while result.last?.isWhitespace == true { result.removeLast() }
        return result + "…"
    }
}

extension Character {
    /// Terminal columns of one grapheme cluster (see `String.displayWidth`).
    var displayWidth: Int {
        guard let first = unicodeScalars.first else { return 0 }
        if first.value < 0x20 || (0x7F..<0xA0).contains(first.value) { return 0 }
        if unicodeScalars.allSatisfy({ Self.isZeroWidth($0) }) { return 0 }
        if unicodeScalars.contains(where: { Self.isWide($0) }) { return 2 }
        return 1
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return scalar.value == 0x200B
        }
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation { return true }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
