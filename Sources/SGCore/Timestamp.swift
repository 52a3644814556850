import Foundation

/// UTC instants as fixed-width ISO 8601 text ("2026-11-21T09:30:00.250Z"), which sorts as it reads.
public enum Timestamp {
    public static func format(_ instant: Date) -> String {
        let millis = Int((instant.timeIntervalSince1970 * 1000).rounded(.down))
        let (dayNumber, millisOfDay) = millis.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, ms) = millisOfDay < 0 ? (dayNumber - 1, millisOfDay + 86_400_000) : (dayNumber, millisOfDay)
        let date = CalendarDate(dayNumber: day)?.description ?? "0001-01-01"
        let hours = ms / 3_600_000, minutes = ms / 60_000 % 60, seconds = ms / 1000 % 60, fraction = ms % 1000
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: width - digits.count) + digits
        }
        return "\(date)T\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2)).\(pad(fraction, 3))Z"
    }

    /// Parses what `format` writes, and the same without fractional seconds.
    public static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 || bytes.count == 24, bytes.last == UInt8(ascii: "Z"), bytes[10] == UInt8(ascii: "T"),
              let date = CalendarDate(iso: String(decoding: bytes[0..<10], as: UTF8.self))
        else { return nil }
        guard let hours = decimal(bytes, 11..<13), let minutes = decimal(bytes, 14..<16), let seconds = decimal(bytes, 17..<19),
              hours < 24, minutes < 60, seconds < 60
        else { return nil }
        var millis = 0
        if bytes.count == 24 {
            guard bytes[19] == UInt8(ascii: "."), let fraction = decimal(bytes, 20..<23) else { return nil }
            millis = fraction
        }
        let total = Double(date.dayNumber) * 86_400 + Double(hours * 3600 + minutes * 60 + seconds) + Double(millis) / 1000
        return Date(timeIntervalSince1970: total)
    }
}
