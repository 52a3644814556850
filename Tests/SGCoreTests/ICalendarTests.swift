import Foundation
import Testing
@testable import SGCore

/// iCalendar text checked byte by byte: folding at 75 octets (RFC 5545 §3.1), TEXT escaping (§3.3.11), CRLF.
@Suite struct ICalendarTests {
    func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                lines.append(current)
                current = []
                index += 2
            } else {
                current.append(bytes[index])
                index += 1
            }
        }
        #expect(current.isEmpty, "the text ends with CRLF")
        return lines
    }

    @Test func shortLinesAreLeftWholeWithCRLF() {
        #expect(ICalendarWriter.folded("SUMMARY:Holiday") == Array("SUMMARY:Holiday\r\n".utf8))
        let exactly75 = "X:" + String(repeating: "a", count: 73)
        #expect(ICalendarWriter.folded(exactly75) == Array((exactly75 + "\r\n").utf8))
    }

    @Test func longLinesFoldAt75OctetsWithASpaceAfterEachBreak() {
        let line = "DESCRIPTION:" + String(repeating: "0123456789", count: 20)  // 212 octets
        let folded = ICalendarWriter.folded(line)
        let parts = lines(folded)
        #expect(parts.map(\.count) == [75, 75, 64])  // 75 + (1 + 74) + (1 + 63)
        #expect(parts.dropFirst().allSatisfy { $0.first == 0x20 })
        // Unfolding (removing each CRLF and the space after it) gives the line back.
        let unfolded = parts.enumerated().flatMap { $0.offset == 0 ? $0.element : Array($0.element.dropFirst()) }
        #expect(unfolded == Array(line.utf8))
    }

    @Test func foldingNeverSplitsAUTF8Character() {
        // 'é' is 2 octets, '€' 3, '🎉' 4: at every offset the break falls between characters.
        for prefix in 0..<8 {
            for piece in ["é", "€", "🎉"] {
                let line = "SUMMARY:" + String(repeating: "a", count: prefix) + String(repeating: piece, count: 60)
                let parts = lines(ICalendarWriter.folded(line))
                for (number, part) in parts.enumerated() {
                    #expect(part.count <= 75, "line \(number) of \(prefix) × a + \(piece)")
                    let content = number == 0 ? part : Array(part.dropFirst())
                    #expect(String(validating: content, as: UTF8.self) != nil, "line \(number) holds whole characters")
                }
                let unfolded = parts.enumerated().flatMap { $0.offset == 0 ? $0.element : Array($0.element.dropFirst()) }
                #expect(String(decoding: unfolded, as: UTF8.self) == line)
            }
        }
        // Exactly: 74 octets then a 2-octet 'é' would make 76, so 'é' starts the next line.
        let line = "X:" + String(repeating: "a", count: 72) + "é"
        #expect(ICalendarWriter.folded(line) == Array(("X:" + String(repeating: "a", count: 72) + "\r\n é\r\n").utf8))
    }

    @Test func textEscapesBackslashSemicolonCommaAndNewlines() {
        #expect(ICalendarWriter.escape(#"a\b;c,d"#) == #"a\\b\;c\,d"#)
        #expect(ICalendarWriter.escape("one\ntwo\r\nthree\rfour") == #"one\ntwo\nthree\nfour"#)
        #expect(ICalendarWriter.escape("tab\there, bell\u{07}gone") == "tab\there\\, bellgone")
        #expect(ICalendarWriter.escape("José: Núñez") == "José: Núñez")
        var writer = ICalendarWriter()
        writer.text("SUMMARY", "Núñez, \"Pepe\"; away\\")
        #expect(writer.bytes == Array("SUMMARY:Núñez\\, \"Pepe\"\\; away\\\\\r\n".utf8))
    }

    @Test func datesAndInstantsInBasicFormat() {
        #expect(ICalendarWriter.basic(CalendarDate(year: 2026, month: 8, day: 10)!) == "20260810")
        #expect(ICalendarWriter.basic(Timestamp.parse("2026-03-02T09:30:05.250Z")!) == "20260302T093005Z")
        var writer = ICalendarWriter()
        writer.date("DTSTART", CalendarDate(year: 2026, month: 12, day: 31)!)
        #expect(writer.bytes == Array("DTSTART;VALUE=DATE:20261231\r\n".utf8))
    }

    static let created = Timestamp.parse("2026-03-02T09:30:00.000Z")!
    static let updated = Timestamp.parse("2026-03-03T10:00:00.000Z")!

    func request(
        _ id: Int64, _ start: String, _ end: String, startHalf: DayHalf = .morning, endHalf: DayHalf = .afternoon,
        status: HolidayStatus = .approved, type: (Int64, String, Bool) = (1, "holiday", false), changes: Int = 2
    ) -> FeedRequest {
        FeedRequest(
            absence: Absence(
                requestID: id, employeeID: 7, leaveTypeID: type.0, leaveTypeName: type.1, isPrivateType: type.2,
                period: LeavePeriod(unchecked: CalendarDate(iso: start)!, end: CalendarDate(iso: end)!, startHalf: startHalf, endHalf: endHalf),
                status: status),
            employeeName: "José Núñez, \"Pepe\"", duration: .days(3), createdAt: Self.created, updatedAt: Self.updated, changes: changes)
    }

    @Test func aPersonalFeedHasAllDayEventsWithStatusSequenceAndStamps() {
        let owner = Employee(id: 7, username: "bob", name: "José", surname: "Núñez", email: "b@example.com", isAdmin: false, isActive: true)
        let text = String(decoding: CalendarFeedDocument.personal(companyName: "ACME; Ltd", owner: owner, requests: [
            request(1, "2026-08-10", "2026-08-12", startHalf: .afternoon, status: .pending, changes: 1),
            request(2, "2026-12-31", "2026-12-31", status: .cancelled, changes: 3),
        ]), as: UTF8.self)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//SGEmployee//Holidays//EN\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(text.contains("X-WR-CALNAME:ACME\\; Ltd: José Núñez's leave\r\n"))
        #expect(text.contains("REFRESH-INTERVAL;VALUE=DURATION:PT1H\r\n"))
        #expect(text.contains(
            "BEGIN:VEVENT\r\nUID:request-1@sgemployee\r\nDTSTAMP:20260303T100000Z\r\nCREATED:20260302T093000Z\r\n"
                + "LAST-MODIFIED:20260303T100000Z\r\nSEQUENCE:0\r\nDTSTART;VALUE=DATE:20260810\r\nDTEND;VALUE=DATE:20260813\r\n"
                + "SUMMARY:Holiday (pending) (from the afternoon)\r\n"))
        #expect(text.contains("STATUS:TENTATIVE\r\n"))
        // Across the year's end, DTEND is the next year's first day; cancelled shows as CANCELLED.
        #expect(text.contains("SEQUENCE:2\r\nDTSTART;VALUE=DATE:20261231\r\nDTEND;VALUE=DATE:20270101\r\nSUMMARY:Holiday (cancelled)\r\n"))
        #expect(text.contains("STATUS:CANCELLED\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }

    @Test func theCompanyFeedNamesPeopleButNotPrivateTypes() {
        let text = String(decoding: CalendarFeedDocument.company(
            companyName: "ACME", requests: [
                request(1, "2026-08-10", "2026-08-10", startHalf: .morning, endHalf: .morning),
                request(2, "2026-09-01", "2026-09-02", type: (2, "sick", true)),
            ],
            calendar: CalendarHolidays(
                calendarID: 3, calendarName: "Madrid", holidays: [PublicHoliday(date: CalendarDate(iso: "2026-05-15")!, name: "San Isidro")])
        ), as: UTF8.self)
        #expect(text.contains("UID:absence-1@sgemployee\r\n"))
        #expect(text.contains("SUMMARY:José Núñez\\, \"Pepe\": holiday (morning)\r\n"))
        #expect(text.contains("SUMMARY:José Núñez\\, \"Pepe\": away\r\n"))
        #expect(!text.contains("sick"))
        #expect(text.contains(
            "UID:public-holiday-3-20260515@sgemployee\r\nDTSTAMP:20260515T000000Z\r\nSEQUENCE:0\r\nDTSTART;VALUE=DATE:20260515\r\n"
                + "DTEND;VALUE=DATE:20260516\r\nSUMMARY:San Isidro\r\nDESCRIPTION:Public holiday (Madrid)\r\n"))
    }

    @Test func aFeedWithoutEventsStillHoldsAComponent() {
        let owner = Employee(id: 7, username: "bob", name: "Bob", surname: "B", email: "b@example.com", isAdmin: false, isActive: true)
        let text = String(decoding: CalendarFeedDocument.personal(companyName: "ACME", owner: owner, requests: []), as: UTF8.self)
        #expect(text.hasSuffix(
            "BEGIN:VTIMEZONE\r\nTZID:UTC\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0000\r\nTZOFFSETTO:+0000\r\n"
                + "END:STANDARD\r\nEND:VTIMEZONE\r\nEND:VCALENDAR\r\n"))
        let busy = CalendarFeedDocument.personal(companyName: "ACME", owner: owner, requests: [request(1, "2026-08-10", "2026-08-10")])
        #expect(!String(decoding: busy, as: UTF8.self).contains("VTIMEZONE"))
    }

    @Test func halfDayNotes() {
        func period(_ start: String, _ end: String, _ a: DayHalf, _ b: DayHalf) -> LeavePeriod {
            LeavePeriod(unchecked: CalendarDate(iso: start)!, end: CalendarDate(iso: end)!, startHalf: a, endHalf: b)
        }
        #expect(CalendarFeedDocument.halvesNote(period("2026-08-10", "2026-08-12", .morning, .afternoon)) == "")
        #expect(CalendarFeedDocument.halvesNote(period("2026-08-10", "2026-08-10", .afternoon, .afternoon)) == " (afternoon)")
        #expect(CalendarFeedDocument.halvesNote(period("2026-08-10", "2026-08-12", .morning, .morning)) == " (until noon)")
        #expect(CalendarFeedDocument.halvesNote(period("2026-08-10", "2026-08-12", .afternoon, .morning)) == " (from the afternoon, until noon)")
    }

    @Test func whatColleaguesAdminsAndOwnersSeeOfAnAbsence() {
        let sick = Absence(
            requestID: 5, employeeID: 7, leaveTypeID: 2, leaveTypeName: "sick", isPrivateType: true,
            period: LeavePeriod(unchecked: CalendarDate(iso: "2026-03-02")!, end: CalendarDate(iso: "2026-03-02")!, startHalf: .morning, endHalf: .afternoon),
            status: .approved)
        let colleague = Actor(employeeID: 8, name: "alice", isAdmin: false)
        let owner = Actor(employeeID: 7, name: "bob", isAdmin: false)
        let admin = Actor(employeeID: 1, name: "admin", isAdmin: true)
        #expect(AbsenceService.entry(sick, viewer: colleague) == .init(period: sick.period, certainty: .confirmed, leaveTypeName: nil, requestID: nil))
        #expect(AbsenceService.entry(sick, viewer: owner)?.leaveTypeName == "sick")
        #expect(AbsenceService.entry(sick, viewer: admin)?.requestID == 5)
        var pending = sick
        pending.status = .pending
        #expect(AbsenceService.entry(pending, viewer: colleague) == nil)
        #expect(AbsenceService.entry(pending, viewer: owner)?.certainty == .tentative)
        #expect(AbsenceService.entry(pending, viewer: admin)?.certainty == .tentative)
        var cancelled = sick
        cancelled.status = .cancelled
        #expect(AbsenceService.entry(cancelled, viewer: admin) == nil)
    }
}
