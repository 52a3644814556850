import Foundation

/// UTC instants as fixed-width ISO 8601 text ("2026-11-21T09:30:00.250Z"), which sorts as it reads.
public enum Timestamp {
    public static func format(_ instant: Date) -> String {
        String(unsafeUninitializedCapacity: 24) { buffer in write(instant, into: buffer) }
    }

    /// Writes the 24 bytes of `format(instant)` at the start of `buffer` (which must hold 24); returns 24.
    @discardableResult
    public static func write(_ instant: Date, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let millis = Int((instant.timeIntervalSince1970 * 1000).rounded(.down))
        let (dayNumber, millisOfDay) = millis.quotientAndRemainder(dividingBy: 86_400_000)
        let (day, ms) = millisOfDay < 0 ? (dayNumber - 1, millisOfDay + 86_400_000) : (dayNumber, millisOfDay)
        let date = CalendarDate(dayNumber: day) ?? CalendarDate(year: 1, month: 1, day: 1)!
        date.write(into: buffer)
        buffer[10] = UInt8(ascii: "T")
        ASCIIDigits.write(ms / 3_600_000, width: 2, into: buffer, at: 11)
        buffer[13] = UInt8(ascii: ":")
        ASCIIDigits.write(ms / 60_000 % 60, width: 2, into: buffer, at: 14)
        buffer[16] = UInt8(ascii: ":")
        ASCIIDigits.write(ms / 1000 % 60, width: 2, into: buffer, at: 17)
        buffer[19] = UInt8(ascii: ".")
        ASCIIDigits.write(ms % 1000, width: 3, into: buffer, at: 20)
        buffer[23] = UInt8(ascii: "Z")
        return 24
    }

    /// Parses what `format` writes, and the same without fractional seconds.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// `parse(_:)` over UTF-8 bytes, such as a database column.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count == 20 || bytes.count == 24, bytes[bytes.count - 1] == UInt8(ascii: "Z"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let date = CalendarDate(isoBytes: UnsafeBufferPointer(rebasing: bytes[0..<10]))
        else { return nil }
        guard let hours = ASCIIDigits.value(bytes, 11..<13), let minutes = ASCIIDigits.value(bytes, 14..<16),
              let seconds = ASCIIDigits.value(bytes, 17..<19), hours < 24, minutes < 60, seconds < 60
        else { return nil }
        var millis = 0
        if bytes.count == 24 {
            guard bytes[19] == UInt8(ascii: "."), let fraction = ASCIIDigits.value(bytes, 20..<23) else { return nil }
            millis = fraction
        }
        let total = Double(date.dayNumber) * 86_400 + Double(hours * 3600 + minutes * 60 + seconds) + Double(millis) / 1000
        return Date(timeIntervalSince1970: total)
    }
}
