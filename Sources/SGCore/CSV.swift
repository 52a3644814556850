/// RFC 4180 CSV for HR's exports, with spreadsheet formulas neutralised.
public enum CSV {
    /// One record: cells quoted when they hold a comma, quote, CR or LF; lines end with CRLF as RFC 4180 says.
    public static func record(_ cells: [Cell]) -> String {
        cells.map(\.encoded).joined(separator: ",") + "\r\n"
    }

    public enum Cell: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        /// Text from people (names, comments): a leading = + - @ (or tab, CR) gets a ' so a spreadsheet shows
        /// it instead of running it as a formula.
        case text(String)
        case number(Int)

        public init(stringLiteral value: String) { self = .text(value) }
        public init(integerLiteral value: Int) { self = .number(value) }

        var encoded: String {
            switch self {
            case .number(let value):
                return String(value)
            case .text(var value):
                if let first = value.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) {
                    value = "'" + value
                }
                if value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) {
                    return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                }
                return value
            }
        }
    }
}
