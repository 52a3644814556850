import Foundation
import ArgumentParser
import SGCore

// How sgadmin writes what it shows: tables, JSON or CSV on standard output, as they are written.

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, csv
}

/// Rows printed as an aligned table, JSON (array of objects) or CSV.
struct Output {
    let columns: [String]
    let rows: [[CSV.Cell]]

    /// Writes the rows to standard output in `format`, about 64 KiB at a time: the whole text built first, then
    /// copied into a string and again into data, would take memory (and page faults) in proportion to the list.
    func print(_ format: OutputFormat) {
        var out = StandardOutput()
        switch format {
        case .csv:
            CSV.append(columns.map(CSV.Cell.text), to: &out.bytes)
            for row in rows {
                // Quoted cells may keep their line breaks; other control characters are escaped as in the table.
                CSV.append(row.map(Self.safeInCSV), to: &out.bytes)
                out.flushIfFull()
            }
        case .json:
            let objects = rows.map { row in Dictionary(uniqueKeysWithValues: zip(columns, row)) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let json = String(decoding: (try? encoder.encode(objects)) ?? Data("[]".utf8), as: UTF8.self)
            out.bytes.append(contentsOf: TextRules.jsonWithEscapedControls(json).utf8)
            out.bytes.append(UInt8(ascii: "\n"))
        case .table:
            // The columns' widths first; each cell is made plain again as its line is written.
            var widths = columns.map(Self.width)
            for row in rows {
                for (index, cell) in row.enumerated() { widths[index] = max(widths[index], Self.width(Self.plain(cell))) }
            }
            // Into one buffer: a string per padded cell and per line would cost a long list much of its time.
            func line(_ values: [String]) {
                for (index, value) in values.enumerated() {
                    out.bytes.append(contentsOf: value.utf8)
                    guard index < values.count - 1 else { break }
                    out.bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: widths[index] - Self.width(value) + 2))
                }
                out.bytes.append(UInt8(ascii: "\n"))
                out.flushIfFull()
            }
            line(columns)
            for row in rows { line(row.map(Self.plain)) }
        }
        out.flush()
    }

    /// A text cell with every control character but line breaks and tabs shown escaped.
    static func safeInCSV(_ cell: CSV.Cell) -> CSV.Cell {
        guard case .text(let text) = cell else { return cell }
        return .text(TextRules.shownSafely(text, keeping: ["\n", "\r", "\t"]))
    }

    /// Characters a cell takes on a terminal line, as `String.count` says; printable ASCII is counted by its bytes.
    static func width(_ text: String) -> Int {
        TextRules.isPrintableASCII(text) ? text.utf8.count : text.count
    }

    /// A cell on one line of a terminal: line breaks become spaces, other control characters escapes.
    static func plain(_ cell: CSV.Cell) -> String {
        switch cell {
        // Most cells are printable ASCII, and most others hold no line break: look at the bytes before asking
        // Foundation to replace anything.
        case .text(let text):
            TextRules.isPrintableASCII(text)
                ? text : TextRules.shownSafely(text.utf8.contains(0x0A) ? text.replacingOccurrences(of: "\n", with: " ") : text)
        case .number(let number): String(number)
        case .days(let days): days.description
        case .flag(let flag): flag ? "yes" : "no"
        case .absent: ""
        }
    }
}

func printOut(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
}

/// Bytes for standard output, written a buffer at a time.
struct StandardOutput {
    static let bufferSize = 64 << 10
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(Self.bufferSize + 4096) }

    mutating func flushIfFull() { if bytes.count >= Self.bufferSize { flush() } }

    mutating func flush() {
        guard !bytes.isEmpty else { return }
        FileHandle.standardOutput.write(Data(bytes))
        bytes.removeAll(keepingCapacity: true)
    }
}
