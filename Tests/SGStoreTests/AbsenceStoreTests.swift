import Foundation
import GRDB
import Testing
import SGCore
import SGTestSupport
@testable import SGStore

/// Who is off and the feeds, on the real store: pages, range edges, and the indexes the reads rely on.
@Suite struct AbsenceStoreTests {
    @Test(.enabled(if: !TestEngine.isPostgres, "reads SQLite's query plans")) func aPagesAbsencesAreOneRangePerEmployeeOfTheEmployeeIndex() async throws {
        let f = try await Fixture.make()
        let plan = try await f.queryPlan(SQLAbsences.absencesSQL.sqlite, ["[1,2,3]", "2025-03-01", "2026-03-31", "2026-03-01", 0, 1])
        #expect(plan.contains("holiday_requests_employee (employee_id=? AND start_date>? AND start_date<?)"), "\(plan)")
        #expect(!plan.contains("SCAN r"), "\(plan)")
    }

    @Test func whoIsAwayStopsAtItsLimitOfEmployeesAndKeepsTheirEveryAbsence() async throws {
        let f = try await Fixture.make()
        let holidays = f.services.holidays
        // Alice leaves first with two requests in the week; bob next; admin last, beyond a limit of two.
        for (employee, days) in [(f.alice, ["2026-03-02", "2026-03-05"]), (f.bob, ["2026-03-03"]), (f.admin, ["2026-03-04"])] {
            for day in days {
                let request = try await holidays.createRequest(
                    for: employee.id, start: Fixture.date(day), end: Fixture.date(day), comment: "", actor: employee.actor)
                if employee.id != f.admin.id {
                    _ = try await holidays.perform(.approve, on: request.id, by: f.admin.actor)
                } else {
                    _ = try await holidays.perform(.approve, on: request.id, by: Actor(employeeID: nil, name: "operator", isAdmin: true))
                }
            }
        }
        let (found, more) = try await f.database.absenceStore.read { tx in
            try tx.approvedAbsences(from: Fixture.date("2026-03-02"), to: Fixture.date("2026-03-08"), employeeLimit: 2)
        }
        #expect(found.map(\.employee.employee.username) == ["alice", "bob", "alice"])
        #expect(more)
        let all = try await f.database.absenceStore.read { tx in
            try tx.approvedAbsences(from: Fixture.date("2026-03-02"), to: Fixture.date("2026-03-08"), employeeLimit: 3)
        }
        #expect(all.found.count == 4 && !all.more)
    }

    @Test(.enabled(if: !TestEngine.isPostgres, "reads SQLite's query plans")) func whoIsAwayReadsOnlyIndexesAndAFortnightOfStarts() async throws {
        let f = try await Fixture.make()
        let starting = try await f.queryPlan(SQLAbsences.awayStartingSQL, ["2026-02-17", "2026-03-02"])
        #expect(starting.contains("COVERING INDEX holiday_requests_approved_start (start_date=? AND end_date>?)"), "\(starting)")
        let long = try await f.queryPlan(SQLAbsences.awayLongSQL, ["2026-02-17", "2026-03-02"])
        #expect(long.contains("COVERING INDEX holiday_requests_approved_long (end_date>?)"), "\(long)")
        let absences = try await f.queryPlan(SQLAbsences.awayAbsencesSQL.sqlite, ["[1,2]", "2025-03-01", "2026-03-09", "2026-03-02"])
        #expect(absences.contains("holiday_requests_employee (employee_id=? AND start_date>? AND start_date<?)"), "\(absences)")
        #expect(!absences.contains("SCAN r"), "\(absences)")
    }

    /// Requests that began up to a fortnight before the window come from the starts; longer ones under way from
    /// the index of long requests by their end.
    @Test func whoIsAwayFindsRequestsThatBeganLongBefore() async throws {
        let f = try await Fixture.make()
        let t = f.today
        for (employee, days) in [(f.alice, 13), (f.bob, SQLAbsences.longSpanDays), (f.secondAdmin, 300)] {
            _ = try await f.services.holidays.createRequest(
                for: employee.id, period: try LeavePeriod(start: t, end: t.adding(days: days)!), leaveTypeID: LeaveType.sickID,
                comment: "", actor: employee.actor)
        }
        func away(on offset: Int) async throws -> [String] {
            let day = t.adding(days: offset)!
            return try await f.database.absenceStore.read { tx in
                try tx.approvedAbsences(from: day, to: day, employeeLimit: 10)
            }.found.map(\.employee.employee.username)
        }
        #expect(try await away(on: 13) == ["alice", "bob", "admin2"])
        #expect(try await away(on: 14) == ["bob", "admin2"])
        #expect(try await away(on: 15) == ["admin2"])
        #expect(try await away(on: 300) == ["admin2"])
        #expect(try await away(on: 301) == [])
    }

    /// The long absences under way come first, then those that began in the fortnight before the window and last
    /// into it, then the window's own, each by start; what ended the day before the window is not there.
    @Test func whoIsAwayIsInTheOrderTheirAbsencesBeganAndLeavesOutWhatHasEnded() async throws {
        let f = try await Fixture.make()
        let t = f.today
        let window = t.adding(days: 20)!
        for (employee, from, to) in [(f.admin, 21, 21), (f.alice, 15, 19), (f.bob, 15, 21), (f.secondAdmin, 2, 25)] {
            _ = try await f.services.holidays.createRequest(
                for: employee.id, period: try LeavePeriod(start: t.adding(days: from)!, end: t.adding(days: to)!),
                leaveTypeID: LeaveType.sickID, comment: "", actor: employee.actor)
        }
        let (found, more) = try await f.database.absenceStore.read { tx in
            try tx.approvedAbsences(from: window, to: window.adding(days: 6)!, employeeLimit: 10)
        }
        #expect(found.map(\.employee.employee.username) == ["admin2", "bob", "admin"])
        #expect(!more)
        let first = try await f.database.absenceStore.read { tx in
            try tx.approvedAbsences(from: window, to: window.adding(days: 6)!, employeeLimit: 2)
        }
        #expect(first.found.map(\.employee.employee.username) == ["admin2", "bob"])
        #expect(first.more)
    }

    @Test(.enabled(if: !TestEngine.isPostgres, "reads SQLite's query plans")) func theCompanyFeedReadsOnlyItsWindowOfApprovedRequests() async throws {
        let f = try await Fixture.make()
        let plan = try await f.queryPlan(SQLAbsences.companyFeedSQL, ["2025-01-01", "2027-01-01", "2026-01-31"])
        #expect(plan.contains("holiday_requests_approved_start (start_date>? AND start_date<?)"), "\(plan)")
    }

    @Test func aRequestOfTheLongestSpanIsFoundOnItsLastDay() async throws {
        let f = try await Fixture.make()
        // 366 days, both included: the longest a request may cover.
        let end = f.today.adding(days: HolidayService.maximumSpanDays - 1)!
        let sick = try await f.service.createRequest(
            for: f.alice.id, period: try LeavePeriod(start: f.today, end: end), leaveTypeID: LeaveType.sickID, comment: "", actor: f.alice.actor)
        let absences = f.services.absences
        for day in [f.today, end] {
            let page = try await absences.absences(AbsenceQuery(from: day, to: day), viewer: f.bob.actor)
            let alice = try #require(page.rows.first { $0.employee.employee.id == f.alice.id })
            #expect(alice.absences.count == 1 && alice.absences.first?.leaveTypeName == nil && alice.absences.first?.requestID == nil)
        }
        let after = try await absences.absences(AbsenceQuery(from: end.adding(days: 1)!, to: end.adding(days: 1)!), viewer: f.admin.actor)
        #expect(after.rows.allSatisfy { $0.absences.isEmpty })
        #expect(sick.status == .approved)
    }

    @Test func pagesCoverEveryActiveEmployeeOnceInDirectoryOrder() async throws {
        let f = try await Fixture.make()
        for index in 0..<57 {
            _ = try await f.services.accounts.addEmployee(NewEmployee(
                username: "e\(index)", name: "Name\(index)", surname: index % 2 == 0 ? "Álvarez" : "Zapata", email: "e\(index)@example.com",
                isAdmin: false, passwordHash: nil))
        }
        _ = try await f.services.accounts.deactivate(username: "e3")
        var seen: [Int64] = []
        var after: Int64?
        var pages = 0
        repeat {
            let page = try await f.services.absences.absences(
                AbsenceQuery(from: f.today, to: f.today, afterID: after, limit: 20), viewer: f.alice.actor)
            seen += page.rows.map(\.employee.employee.id)
            after = page.nextAfterID
            pages += 1
        } while after != nil && pages < 10
        let directory = try await f.services.people.list(PeopleQuery(active: true, limit: 200)).items.map(\.employee.id)
        #expect(seen == directory)
        #expect(seen.count == 4 + 56 && pages == 3)
    }

    @Test func aSecretIsKeptOnlyAsItsDigest() async throws {
        let f = try await Fixture.make()
        let (feed, path, url) = try await f.services.absences.createFeed(kind: .company, employeeID: f.alice.id)
        #expect(url == nil)
        let secret = String(path.dropFirst("/ical/".count).dropLast(".ics".count))
        let stored = try await f.database.column(
            sql: "SELECT COUNT(*) FROM calendar_feeds WHERE id = ? AND secret_digest = ?", [.integer(feed.id), .blob(Digests.tokenDigest(secret))])
        #expect(stored == ["1"])
        let text = try await f.database.column(sql: "SELECT CAST(secret_digest AS TEXT) || kind || created_at FROM calendar_feeds")
        #expect(!text.compactMap { $0 }.joined().contains(secret))
        #expect(!(try await f.services.absences.feedDocument(secret: secret)).isEmpty)
    }

    @Test func aNewFeedsURLIsUnderThePublicURLWhenOneIsSet() async throws {
        let f = try await Fixture.make()
        try await f.services.delivery.announce(DeliveryConfiguration(emailEnabled: false, publicURL: "https://holidays.example.com"))
        let (_, path, url) = try await f.services.absences.createFeed(kind: .personal, employeeID: f.bob.id)
        #expect(url == "https://holidays.example.com" + path)
    }

    @Test func theCompanyFeedCoversThirtyDaysBackAndAYearAhead() async throws {
        let f = try await Fixture.make()
        func sick(_ offset: Int) async throws -> HolidayRequest {
            let day = f.weekday(offset)
            return try await f.service.createRequest(
                for: f.alice.id, period: try LeavePeriod(start: day, end: day), leaveTypeID: LeaveType.sickID, comment: "", actor: f.alice.actor)
        }
        let soon = try await sick(10)
        let far = try await sick(CalendarFeedDocument.companyFutureDays + 7)
        let (_, path, _) = try await f.services.absences.createFeed(kind: .company, employeeID: f.bob.id)
        let secret = String(path.dropFirst("/ical/".count).dropLast(".ics".count))
        func feed() async throws -> String { String(decoding: try await f.services.absences.feedDocument(secret: secret), as: UTF8.self) }
        var text = try await feed()
        #expect(text.contains("UID:absence-\(soon.id)@sgemployee") && !text.contains("UID:absence-\(far.id)@sgemployee"))
        // 30 days after its last day it is still there; 31 days after, gone.
        let last = soon.endDate.start(in: TimeZone(identifier: "UTC")!)
        f.clock.set(last.addingTimeInterval(Double(CalendarFeedDocument.companyPastDays) * 86_400 + 43_200))
        text = try await feed()
        #expect(text.contains("UID:absence-\(soon.id)@sgemployee"))
        f.clock.set(last.addingTimeInterval(Double(CalendarFeedDocument.companyPastDays + 1) * 86_400 + 43_200))
        text = try await feed()
        #expect(!text.contains("UID:absence-\(soon.id)@sgemployee"))
    }
}
