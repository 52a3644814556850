import Foundation
import Testing
@testable import SGCore

@Suite struct CalendarDateTests {
    @Test(arguments: ["2026-02-30", "2025-02-29", "2026-13-01", "2026-00-10", "2026-1-01", "2026-01-1", "26-01-01",
                      "2026-01-01T00:00", "", "2026/01/01", "２０２６-01-01", "-001-01-01", "0000-01-01"])
    func rejectsWhatIsNotADate(_ text: String) {
        #expect(CalendarDate(iso: text) == nil)
    }

    @Test func acceptsLeapDaysOnlyInLeapYears() {
        #expect(CalendarDate(iso: "2024-02-29") != nil)
        #expect(CalendarDate(iso: "2000-02-29") != nil)
        #expect(CalendarDate(iso: "1900-02-29") == nil)
        #expect(CalendarDate(iso: "2100-02-29") == nil)
    }

    @Test func printsWhatItParses() {
        for text in ["2026-08-10", "0001-01-01", "9999-12-31", "2024-02-29"] {
            #expect(CalendarDate(iso: text)?.description == text)
        }
    }

    @Test func dayNumbersRoundTripAndAreContiguous() {
        #expect(CalendarDate(iso: "1970-01-01")!.dayNumber == 0)
        #expect(CalendarDate(iso: "2000-03-01")!.dayNumber == 11_017)
        var previous = CalendarDate(iso: "1899-12-31")!
        for number in (previous.dayNumber + 1)...(CalendarDate(iso: "2101-01-01")!.dayNumber) {
            let date = CalendarDate(dayNumber: number)!
            #expect(date.dayNumber == number)
            #expect(previous < date)
            #expect(previous.adding(days: 1) == date)
            previous = date
        }
    }

    @Test func knowsTheWeekday() {
        #expect(CalendarDate(iso: "2026-11-21")!.isoWeekday == 6)  // Saturday
        #expect(CalendarDate(iso: "2026-08-10")!.isoWeekday == 1)  // Monday
        #expect(CalendarDate(iso: "1969-12-31")!.isoWeekday == 3)  // Wednesday
        #expect(CalendarDate(iso: "2000-01-01")!.isoWeekday == 6)
    }

    @Test func takesTheDayOfAnInstantInTheCompanyTimeZone() {
        // 2026-12-31 23:30 UTC is already New Year's Day in Madrid, and still New Year's Eve in New York.
        let instant = Date(timeIntervalSince1970: Double(CalendarDate(iso: "2026-12-31")!.dayNumber) * 86_400 + 23.5 * 3600)
        #expect(CalendarDate(instant, in: TimeZone(identifier: "UTC")!).description == "2026-12-31")
        #expect(CalendarDate(instant, in: TimeZone(identifier: "Europe/Madrid")!).description == "2027-01-01")
        #expect(CalendarDate(instant, in: TimeZone(identifier: "America/New_York")!).description == "2026-12-31")
    }

    @Test func agreesWithFoundationsCalendarInEveryKindOfZone() {
        // Offsets east and west, half and three-quarter hours, daylight saving changes both ways, the date line.
        let zones = ["UTC", "Europe/Madrid", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe",
                     "Pacific/Kiritimati", "Pacific/Pago_Pago", "America/St_Johns"].map { TimeZone(identifier: $0)! }
        var generator = SystemRandomNumberGenerator()
        var instants = (0..<400).map { _ in Date(timeIntervalSince1970: Double(Int.random(in: -100_000_000...4_000_000_000, using: &generator))) }
        // Around the 2026 transitions in Europe and the US, minute by minute.
        for start in [1_774_746_000, 1_792_890_000, 1_773_036_000, 1_793_595_600] {
            instants += stride(from: start - 7200, through: start + 7200, by: 60).map { Date(timeIntervalSince1970: Double($0)) }
        }
        for zone in zones {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            for instant in instants {
                let parts = calendar.dateComponents([.year, .month, .day], from: instant)
                #expect(CalendarDate(instant, in: zone) == CalendarDate(year: parts.year!, month: parts.month!, day: parts.day!),
                        "\(instant) in \(zone.identifier)")
            }
        }
    }

    /// Both parsers read bytes (the text forms are the same code over a string's UTF-8), so each case is checked
    /// against the value it must give, not against the other form.
    @Test func parsesDatesAndInstantsFromBytes() {
        let dates: [(String, CalendarDate?)] = [
            ("2026-08-10", CalendarDate(year: 2026, month: 8, day: 10)), ("2024-02-29", CalendarDate(year: 2024, month: 2, day: 29)),
            ("2026-02-30", nil), ("2025-02-29", nil), ("2026-8-10", nil), ("2026-08-10T", nil), ("abcd-ef-gh", nil),
            ("2026-00-10", nil), ("2026-08-00", nil), ("", nil),
        ]
        for (text, expected) in dates {
            var copy = text
            #expect(copy.withUTF8 { CalendarDate(isoBytes: $0) } == expected, "\(text)")
            #expect(CalendarDate(iso: text) == expected, "\(text)")
        }
        let nineThirty = Date(timeIntervalSince1970: 1_795_253_400)  // 2026-11-21T09:30:00Z
        let instants: [(String, Date?)] = [
            ("2026-11-21T09:30:00.250Z", nineThirty.addingTimeInterval(0.25)), ("2026-11-21T09:30:00Z", nineThirty),
            ("2026-11-21T09:30:00.25Z", nil), ("2026-11-21 09:30:00Z", nil), ("2026-11-21T09-30-00Z", nil),
            ("2026-13-21T09:30:00Z", nil), ("2026-11-21T09:30:00.250", nil),
        ]
        for (text, expected) in instants {
            var copy = text
            #expect(copy.withUTF8 { Timestamp.parse($0) } == expected, "\(text)")
            #expect(Timestamp.parse(text) == expected, "\(text)")
        }
        #expect(CalendarDate(iso: "0001-01-01")?.description == "0001-01-01")
        #expect(CalendarDate(iso: "9999-12-31")?.description == "9999-12-31")
    }

    @Test func decodesOnlyValidDatesFromJSON() throws {
        struct Body: Decodable { let date: CalendarDate }
        #expect(try JSONDecoder().decode(Body.self, from: Data(#"{"date":"2026-08-10"}"#.utf8)).date.day == 10)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Body.self, from: Data(#"{"date":"2026-02-30"}"#.utf8)) }
    }

    @Test func timestampsRoundTripAndSortAsText() {
        let instants = [0, 1, 1_790_000_000.123, 1_790_000_000.999, 253_402_300_799].map(Date.init(timeIntervalSince1970:))
        for instant in instants {
            let text = Timestamp.format(instant)
            #expect(text.count == 24)
            #expect(abs(Timestamp.parse(text)!.timeIntervalSince1970 - instant.timeIntervalSince1970) < 0.001)
        }
        #expect(Timestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.parse("2026-11-21T09:30:00Z") != nil)
        #expect(Timestamp.parse("2026-11-21T24:00:00Z") == nil)
        let texts = instants.map(Timestamp.format)
        #expect(texts == texts.sorted())
    }
}

@Suite struct WorkingDayTests {
    let counter = WorkingDayCounter(week: .mondayToFriday, publicHolidays: [])

    @Test func countsMondayToFriday() {
        #expect(counter.daysByYear(from: .init(iso: "2026-08-10")!, to: .init(iso: "2026-08-14")!) == [2026: 5])
        #expect(counter.daysByYear(from: .init(iso: "2026-08-10")!, to: .init(iso: "2026-08-23")!) == [2026: 10])
        #expect(counter.daysByYear(from: .init(iso: "2026-08-15")!, to: .init(iso: "2026-08-16")!) == [:])
        #expect(counter.daysByYear(from: .init(iso: "2026-08-14")!, to: .init(iso: "2026-08-10")!) == [:])
    }

    @Test func leavesOutPublicHolidays() {
        let counter = WorkingDayCounter(week: .mondayToFriday, publicHolidays: [CalendarDate(iso: "2026-08-12")!, CalendarDate(iso: "2026-08-15")!])
        #expect(counter.daysByYear(from: .init(iso: "2026-08-10")!, to: .init(iso: "2026-08-16")!) == [2026: 4])
    }

    @Test func splitsARequestAcrossNewYear() {
        let counter = WorkingDayCounter(week: .mondayToFriday, publicHolidays: [CalendarDate(iso: "2027-01-01")!])
        // Mon 28 Dec 2026 .. Fri 8 Jan 2027: 4 days in 2026 (28-31), 5 in 2027 (4-8; 1 Jan is a holiday).
        #expect(counter.daysByYear(from: .init(iso: "2026-12-28")!, to: .init(iso: "2027-01-08")!) == [2026: 4, 2027: 5])
    }

    @Test func followsTheCompanysWorkingWeek() {
        let sundayToThursday = WorkingWeek(code: "71234")!
        #expect(sundayToThursday.code == "12347")
        let counter = WorkingDayCounter(week: sundayToThursday, publicHolidays: [])
        // Sun 9 Aug .. Sat 15 Aug 2026: Sun-Thu are working days.
        #expect(counter.daysByYear(from: .init(iso: "2026-08-09")!, to: .init(iso: "2026-08-15")!) == [2026: 5])
        #expect(WorkingWeek(code: "") == nil)
        #expect(WorkingWeek(code: "128") == nil)
        #expect(WorkingWeek(code: "1x") == nil)
        #expect(WorkingWeek(code: "0") == nil)
        #expect(WorkingWeek(code: "١٢٣") == nil, "digits of other scripts")
        #expect(WorkingWeek(code: "12345") == .mondayToFriday && WorkingWeek(weekdays: [5, 4, 3, 2, 1]) == .mondayToFriday)
        #expect(WorkingWeek(code: "7")?.weekdays == [7] && WorkingWeek(code: "7")?.description == "Sun")
    }

    @Test func agreesWithCountingByHandOverAYear() {
        var expected = 0
        var date = CalendarDate(iso: "2026-01-01")!
        while date.year == 2026 {
            if date.isoWeekday <= 5 { expected += 1 }
            date = date.adding(days: 1)!
        }
        #expect(counter.daysByYear(from: .init(iso: "2026-01-01")!, to: .init(iso: "2026-12-31")!) == [2026: expected])
        #expect(expected == 261)
    }
}

extension WorkingDayCounter {
    /// Whole days per year of a whole-day period (none when the dates are reversed), for the tests above.
    fileprivate func daysByYear(from start: CalendarDate, to end: CalendarDate) -> [Int: Int] {
        guard start <= end else { return [:] }
        let halves = halvesByYear(in: LeavePeriod(unchecked: start, end: end, startHalf: .morning, endHalf: .afternoon))
        return halves.mapValues { $0.halves / 2 }
    }
}
