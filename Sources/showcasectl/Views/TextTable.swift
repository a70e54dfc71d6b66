/// An aligned plain-text table with a header row, as `ps` and `systemctl list-units` print them.
///
/// Widths are measured in terminal columns, so wide characters line up. Cells are never wrapped;
/// the last column may be cut with "…" to fit a terminal's width.
struct TextTable {
    enum Alignment { case left, right }

    struct Column {
        let title: String
        var alignment: Alignment = .left
    }

    let columns: [Column]
    var rows: [[String]] = []

    init(_ columns: [Column]) {
        self.columns = columns
    }

    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The table's lines; with `maxWidth` (the terminal's width) the `shrinking` column is cut
    /// with "…" so that rows fit, down to 8 columns; without it nothing is cut (pipes, files).
    func render(console: Console, maxWidth: Int? = nil, shrinking: Int? = nil) -> [String] {
        var widths = columns.indices.map { index in
            rows.map { $0[index].displayWidth }.reduce(columns[index].title.displayWidth, max)
        }
        if let maxWidth {
            let total = widths.reduce(0, +) + 2 * (widths.count - 1)
            if total > maxWidth, let shrinking, widths.indices.contains(shrinking) {
                let floor = max(columns[shrinking].title.displayWidth, 8)
                widths[shrinking] = max(floor, widths[shrinking] - (total - maxWidth))
            }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (index, cell) in cells.enumerated() {
                let text = cell.truncated(toWidth: widths[index])
                let isLast = index == cells.count - 1
                switch columns[index].alignment {
                case .left: parts.append(isLast ? text : text.padding(to: widths[index]))
                case .right: parts.append(text.leftPadding(to: widths[index]))
                }
            }
            return parts.joined(separator: "  ")
        }
        var lines = [console.paint(line(columns.map(\.title)), .bold)]
        lines += rows.map(line)
        return lines
    }
}
