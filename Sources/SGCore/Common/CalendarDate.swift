/// A day in the proleptic Gregorian calendar, with no time and no time zone.
///
/// Holidays are dates, not instants: "2026-08-10" is the same day for everyone. Instants are converted to a
/// `CalendarDate` only at the edges, with the company's time zone (see `HolidayClock`).
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              (1...CalendarDate.daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`; anything else (2026-02-30, 2026-2-3, a time suffix) is nil.
    public init?(iso text: String) {
        var text = text
        guard let date = text.withUTF8({ CalendarDate(isoBytes: $0) }) else { return nil }
        self = date
    }

    /// `init(iso:)` over UTF-8 bytes, such as a database column, without making a `String` first.
    public init?(isoBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = ASCIIDigits.value(bytes, 0..<4), let month = ASCIIDigits.value(bytes, 5..<7),
              let day = ASCIIDigits.value(bytes, 8..<10)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    public var description: String {
        String(unsafeUninitializedCapacity: 10) { buffer in write(into: buffer) }
    }

    /// Writes the 10 bytes of `description` at the start of `buffer` (which must hold 10); returns 10.
    @discardableResult
    public func write(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        ASCIIDigits.write(year, width: 4, into: buffer, at: 0)
        buffer[4] = UInt8(ascii: "-")
        ASCIIDigits.write(month, width: 2, into: buffer, at: 5)
        buffer[7] = UInt8(ascii: "-")
        ASCIIDigits.write(day, width: 2, into: buffer, at: 8)
        return 10
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before). Howard Hinnant's `days_from_civil`.
    public var dayNumber: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `dayNumber` days after 1970-01-01; nil outside years 1...9999.
    public init?(dayNumber: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(year: year, month: month, day: day)
    }

    /// ISO weekday: 1 = Monday ... 7 = Sunday.
    public var isoWeekday: Int {
        // 1970-01-01 was a Thursday (4).
        let offset = (dayNumber + 3) % 7
        return (offset < 0 ? offset + 7 : offset) + 1
    }

    public func adding(days: Int) -> CalendarDate? {
        CalendarDate(dayNumber: dayNumber + days)
    }

    /// Days from `self` to `other`, positive when `other` is later.
    public func days(to other: CalendarDate) -> Int { other.dayNumber - dayNumber }

    /// `init(iso:)` for a value someone typed: anything but a real YYYY-MM-DD date is an error naming `field`.
    public static func parse(_ text: String, field: String) throws -> CalendarDate {
        guard let date = CalendarDate(iso: text) else {
            throw SGError.invalid(field: field, message: "'\(text)' is not a calendar date in the form YYYY-MM-DD")
        }
        return date
    }

    public static func firstOfYear(_ year: Int) -> CalendarDate? { CalendarDate(year: year, month: 1, day: 1) }
    public static func lastOfYear(_ year: Int) -> CalendarDate? { CalendarDate(year: year, month: 12, day: 31) }
}

extension CalendarDate: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = CalendarDate(iso: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a calendar date in the form YYYY-MM-DD")
        }
        self = date
    }
}

/// Fixed-width decimal fields of ISO 8601 text.
enum ASCIIDigits {
    /// `value` (0 ... 10^width - 1) with leading zeros.
    static func write(_ value: Int, width: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        var value = value
        for index in stride(from: start + width - 1, through: start, by: -1) {
            buffer[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
    }

    static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
