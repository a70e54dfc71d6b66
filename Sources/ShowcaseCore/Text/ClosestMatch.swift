/// Finds the candidate a typo most likely meant, for "did you mean …?" hints: showcasectl's unknown commands
/// and flags, showcased's unknown flags and the configuration's unknown keys all ask here, so they judge
/// "close enough" by one edit distance.
public enum ClosestMatch {
    /// The candidate within a small edit distance of `word` (case ignored), or nil when nothing is close
    /// enough to be a helpful guess (suggesting `--host` for `--xyz` would only confuse).
    public static func find(_ word: String, in candidates: [String]) -> String? {
        let limit = max(1, min(3, word.count / 3))
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(Array(word.lowercased()), Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Levenshtein distance with one rolling row, by character.
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var diagonal = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let above = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}
