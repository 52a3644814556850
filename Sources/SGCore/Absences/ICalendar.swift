import Foundation

/// Writes iCalendar text (RFC 5545) line by line: CRLF endings, lines folded at 75 octets without splitting a UTF-8
/// character (§3.1), TEXT values escaped (§3.3.11), dates as `VALUE=DATE` and instants in UTC.
public struct ICalendarWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// The longest line, in octets, before its CRLF.
    public static let maximumLineOctets = 75

    /// `NAME:value` with `value` written as it is (already in the property's format).
    public mutating func raw(_ name: String, _ value: String) {
        append(line: name + ":" + value)
    }

    /// `NAME:value` with `value` escaped as TEXT.
    public mutating func text(_ name: String, _ value: String) {
        append(line: name + ":" + Self.escape(value))
    }

    /// `NAME;VALUE=DATE:YYYYMMDD`.
    public mutating func date(_ name: String, _ value: CalendarDate) {
        append(line: name + ";VALUE=DATE:" + Self.basic(value))
    }

    /// `NAME:YYYYMMDDTHHMMSSZ`.
    public mutating func instant(_ name: String, _ value: Date) {
        append(line: name + ":" + Self.basic(value))
    }

    public mutating func append(line: String) {
        bytes.append(contentsOf: Self.folded(line))
    }

    /// A content line as sent: folded into lines of at most 75 octets, each continuation starting with one space,
    /// every line ending with CRLF. A multi-octet UTF-8 character is never split across lines.
    public static func folded(_ line: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(line.utf8.count + 8)
        var lineOctets = 0
        for scalar in line.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            if lineOctets + encoded.count > maximumLineOctets {
                out.append(contentsOf: [0x0D, 0x0A, 0x20])
                lineOctets = 1
            }
            out.append(contentsOf: encoded)
            lineOctets += encoded.count
        }
        out.append(contentsOf: [0x0D, 0x0A])
        return out
    }

    /// TEXT as §3.3.11 writes it: backslash, semicolon and comma escaped, every line break (CRLF, LF or CR) as
    /// `\n`. Other control characters, which TEXT cannot hold, are left out.
    public static func escape(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case ";": out.append(contentsOf: "\\;".unicodeScalars)
            case ",": out.append(contentsOf: "\\,".unicodeScalars)
            case "\r": out.append(contentsOf: "\\n".unicodeScalars)
            case "\n": if !previousWasCR { out.append(contentsOf: "\\n".unicodeScalars) }
            case "\t": out.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `YYYYMMDD`.
    public static func basic(_ date: CalendarDate) -> String {
        date.description.replacingOccurrences(of: "-", with: "")
    }

    /// `YYYYMMDDTHHMMSSZ`, to the second.
    public static func basic(_ instant: Date) -> String {
        let text = Array(Timestamp.format(instant).utf8)  // 2026-03-02T09:30:00.250Z
        var picked: [UInt8] = []
        for range in [0..<4, 5..<7, 8..<10] { picked += text[range] }
        picked.append(UInt8(ascii: "T"))
        for range in [11..<13, 14..<16, 17..<19] { picked += text[range] }
        picked.append(UInt8(ascii: "Z"))
        return String(decoding: picked, as: UTF8.self)
    }
}
