/// RFC 4180 CSV for HR's exports, with spreadsheet formulas neutralised.
public enum CSV {
    /// One record: cells quoted when they hold a comma, quote, CR or LF; lines end with CRLF as RFC 4180 says.
    public static func record(_ cells: [Cell]) -> String {
        var line: [UInt8] = []
        line.reserveCapacity(cells.count * 16)
        append(cells, to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// The UTF-8 bytes of `record(cells)`, appended to `bytes`: a long export writes its records into one buffer
    /// without making a string of each.
    public static func append(_ cells: [Cell], to bytes: inout [UInt8]) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            cell.append(to: &bytes)
        }
        bytes.append(0x0D)
        bytes.append(0x0A)
    }

    /// A cell; as JSON (the reports' JSON form, sgadmin's `--format json`): text a string, numbers and days numbers,
    /// a flag a Boolean, an absent value null.
    public enum Cell: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, Encodable, Sendable {
        /// Text from people (names, comments): a leading = + - @ (or tab, CR) gets a ' so a spreadsheet shows
        /// it instead of running it as a formula.
        case text(String)
        case number(Int)
        /// Days in 0.5 steps: "3", "2.5".
        case days(HalfDays)
        /// "yes" or "no".
        case flag(Bool)
        /// An empty cell: a value that is not there (null in the reports' JSON form).
        case absent

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            case .days(let days): try container.encode(days.days)
            case .flag(let flag): try container.encode(flag)
            case .absent: try container.encodeNil()
            }
        }

        public init(stringLiteral value: String) { self = .text(value) }
        public init(integerLiteral value: Int) { self = .number(value) }

        /// Decided on UTF-8 bytes: every character that matters here is ASCII, and a byte of a multi-byte character
        /// is never ASCII.
        func append(to line: inout [UInt8]) {
            switch self {
            case .number(let value):
                line.append(contentsOf: String(value).utf8)
            case .days(let value):
                line.append(contentsOf: value.description.utf8)
            case .flag(let value):
                line.append(contentsOf: (value ? "yes" : "no").utf8)
            case .absent:
                break
            case .text(let value):
                let utf8 = value.utf8
                let formula = utf8.first.map { [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D].contains($0) } ?? false
                let quoted = utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0D || $0 == 0x0A }
                if quoted { line.append(UInt8(ascii: "\"")) }
                if formula { line.append(UInt8(ascii: "'")) }
                if quoted {
                    // Every quote byte doubled: a quote followed by a combining mark is still a quote to a CSV reader.
                    for byte in utf8 {
                        line.append(byte)
                        if byte == UInt8(ascii: "\"") { line.append(byte) }
                    }
                } else {
                    line.append(contentsOf: utf8)
                }
                if quoted { line.append(UInt8(ascii: "\"")) }
            }
        }
    }
}
