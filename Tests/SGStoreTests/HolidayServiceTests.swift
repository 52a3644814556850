import Foundation
import GRDB
import Testing
import SGCore
import SGTestSupport
@testable import SGStore

/// The rules through the real store on a real (in-memory) SQLite database.
@Suite struct HolidayServiceTests {
    @Test func createsAPendingRequestWithServerCountedDaysAndAHistoryEntry() async throws {
        let f = try await Fixture.make()
        try await f.services.company.addPublicHoliday(PublicHoliday(date: Fixture.date("2026-08-12"), name: "Local feast"), by: f.admin.actor)
        let request = try await f.service.createRequest(
            for: f.alice.id, start: Fixture.date("2026-08-10"), end: Fixture.date("2026-08-16"), comment: "  Sea  ",
            actor: f.alice.actor)
        #expect(request.status == .pending)
        #expect(request.duration == .days(4))
        #expect(request.comment == "Sea")
        let detail = try await f.services.holidays.requestDetail(id: request.id, by: f.admin.actor)
        #expect(detail.events.count == 1)
        #expect(detail.events[0].from == nil && detail.events[0].to == .pending && detail.events[0].actor == "alice")
        #expect(detail.today == f.today)
        #expect(detail.balances == [Balance(year: 2026, allowance: .days(23), approved: .zero, pending: .days(4))])
        #expect(detail.otherRequests.isEmpty)
        let balance = try await f.service.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance == Balance(year: 2026, allowance: .days(23), approved: .zero, pending: .days(4)))
        #expect(balance.remaining == .days(19))
    }

    /// A public holiday's name is one line of text like any other: a line break or NUL was accepted.
    @Test func publicHolidayNamesAreOneLineOfText() async throws {
        let f = try await Fixture.make()
        for name in ["", "   ", "Fiesta\nNacional", "Fiesta\u{0}", String(repeating: "x", count: 101)] {
            await #expect(throws: SGError.self) {
                try await f.services.company.addPublicHoliday(PublicHoliday(date: Fixture.date("2026-10-12"), name: name), by: f.admin.actor)
            }
        }
        try await f.services.company.addPublicHoliday(PublicHoliday(date: Fixture.date("2026-10-12"), name: "  Fiesta Nacional "), by: f.admin.actor)
        let names = try await f.database.column(sql: "SELECT name FROM public_holidays")
        #expect(names == ["Fiesta Nacional"])
    }

    @Test func refusesBadDatesWithoutWritingAnything() async throws {
        let f = try await Fixture.make()
        let cases: [(CalendarDate, CalendarDate, String)] = [
            (f.day(10), f.day(9), "endDate"),            // end before start
            (f.day(-1), f.day(3), "startDate"),          // starts in the past
            (Fixture.date("2026-03-07"), Fixture.date("2026-03-08"), "endDate"),  // a weekend only
            (f.day(1), f.day(400), "endDate"),           // longer than a year
        ]
        for (start, end, field) in cases {
            await #expect(throws: SGError.self) {
                do {
                    _ = try await f.service.createRequest(for: f.alice.id, start: start, end: end, comment: "", actor: f.alice.actor)
                } catch let error as SGError {
                    if case .invalid(let got, _) = error { #expect(got == field, "\(start)...\(end)") } else { Issue.record("\(error)") }
                    throw error
                }
            }
        }
        #expect(try await f.count("holiday_requests") == 0)
        #expect(try await f.count("holiday_events") == 0)
    }

    @Test func startingTodayIsAllowed() async throws {
        let f = try await Fixture.make()
        let request = try await f.service.createRequest(for: f.alice.id, start: f.day(0), end: f.day(0), comment: "", actor: f.alice.actor)
        #expect(request.duration == .days(1))
    }

    @Test(arguments: [
        ("2026-08-10", "2026-08-14"),  // the same days
        ("2026-08-12", "2026-08-12"),  // inside
        ("2026-08-03", "2026-08-21"),  // around
        ("2026-08-14", "2026-08-20"),  // touching the last day
        ("2026-08-05", "2026-08-10"),  // touching the first day
    ])
    func refusesAnyOverlapWithPendingOrApproved(start: String, end: String) async throws {
        let f = try await Fixture.make()
        let first = try await f.service.createRequest(
            for: f.alice.id, start: Fixture.date("2026-08-10"), end: Fixture.date("2026-08-14"), comment: "", actor: f.alice.actor)
        await #expect(throws: SGError.overlap(requestID: first.id, start: first.startDate, end: first.endDate, status: .pending)) {
            _ = try await f.service.createRequest(for: f.alice.id, start: Fixture.date(start), end: Fixture.date(end), comment: "", actor: f.alice.actor)
        }
        try await f.service.perform(.approve, on: first.id, by: f.admin.actor)
        await #expect(throws: SGError.overlap(requestID: first.id, start: first.startDate, end: first.endDate, status: .approved)) {
            _ = try await f.service.createRequest(for: f.alice.id, start: Fixture.date(start), end: Fixture.date(end), comment: "", actor: f.alice.actor)
        }
        // Another employee may take the same days.
        _ = try await f.service.createRequest(for: f.bob.id, start: Fixture.date(start), end: Fixture.date(end), comment: "", actor: f.bob.actor)
        #expect(try await f.count("holiday_requests") == 2)
    }

    @Test func cancelledAndRejectedRequestsFreeTheirDays() async throws {
        let f = try await Fixture.make()
        let first = try await f.service.createRequest(for: f.alice.id, start: f.day(7), end: f.day(11), comment: "", actor: f.alice.actor)
        try await f.service.perform(.cancel, on: first.id, by: f.alice.actor)
        let second = try await f.service.createRequest(for: f.alice.id, start: f.day(7), end: f.day(11), comment: "", actor: f.alice.actor)
        try await f.service.perform(.reject, on: second.id, by: f.admin.actor, note: "No")
        _ = try await f.service.createRequest(for: f.alice.id, start: f.day(7), end: f.day(11), comment: "", actor: f.alice.actor)
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2026).pending == .days(5))
    }

    @Test func pendingDaysReserveTheBalance() async throws {
        let f = try await Fixture.make()
        try await f.service.setAllowance(employeeID: f.alice.id, year: 2026, days: 7, by: f.admin.actor)
        _ = try await f.service.createRequest(for: f.alice.id, start: Fixture.date("2026-04-06"), end: Fixture.date("2026-04-10"), comment: "", actor: f.alice.actor)
        await #expect(throws: SGError.balanceExceeded(year: 2026, requested: .days(3), remaining: .days(2), allowance: .days(7))) {
            _ = try await f.service.createRequest(for: f.alice.id, start: Fixture.date("2026-05-04"), end: Fixture.date("2026-05-06"), comment: "", actor: f.alice.actor)
        }
        _ = try await f.service.createRequest(for: f.alice.id, start: Fixture.date("2026-05-04"), end: Fixture.date("2026-05-05"), comment: "", actor: f.alice.actor)
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2026).remaining == .zero)
    }

    @Test func aRequestAcrossNewYearMustFitBothYears() async throws {
        let f = try await Fixture.make()
        try await f.services.company.addPublicHoliday(PublicHoliday(date: Fixture.date("2027-01-01"), name: "New Year"), by: f.admin.actor)
        try await f.service.setAllowance(employeeID: f.alice.id, year: 2027, days: 4, by: f.admin.actor)
        // Nothing carries from 2026 here (carry-over has tests of its own).
        var patch = CompanyPatch()
        patch.carryOverCap = .zero
        _ = try await f.services.company.updateCompany(patch, by: f.admin.actor)
        // 28 Dec 2026 .. 8 Jan 2027 holds 4 days in 2026 and 5 in 2027: 2027 has only 4.
        await #expect(throws: SGError.balanceExceeded(year: 2027, requested: .days(5), remaining: .days(4), allowance: .days(4))) {
            _ = try await f.service.createRequest(for: f.alice.id, start: Fixture.date("2026-12-28"), end: Fixture.date("2027-01-08"), comment: "", actor: f.alice.actor)
        }
        let request = try await f.service.createRequest(
            for: f.alice.id, start: Fixture.date("2026-12-28"), end: Fixture.date("2027-01-07"), comment: "", actor: f.alice.actor)
        #expect(request.duration == .days(8))
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2026).pending == .days(4))
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2027).pending == .days(4))
        #expect(try await f.services.holidays.requestDetail(id: request.id, by: f.admin.actor).daysByYear == [2026: .days(4), 2027: .days(4)])
        let in2027 = try await f.service.yearView(employeeID: f.alice.id, year: 2027)
        #expect(in2027.requests.map(\.id) == [request.id] && in2027.balance.pending == .days(4))
    }

    @Test func everyTransitionAppendsOneEventAndApprovingTwiceIsAConflict() async throws {
        let f = try await Fixture.make()
        let request = try await f.service.createRequest(for: f.alice.id, start: f.day(7), end: f.day(9), comment: "", actor: f.alice.actor)
        let approved = try await f.service.perform(.approve, on: request.id, by: f.admin.actor, note: "ok")
        #expect(approved.status == .approved && approved.decidedBy == "admin")
        await #expect(throws: SGError.wrongState(requestID: request.id, status: .approved, action: .approve)) {
            try await f.service.perform(.approve, on: request.id, by: f.secondAdmin.actor)
        }
        try await f.service.perform(.revert, on: request.id, by: f.secondAdmin.actor, note: "rethink")
        try await f.service.perform(.reject, on: request.id, by: f.admin.actor, note: "clash")
        await #expect(throws: SGError.wrongState(requestID: request.id, status: .rejected, action: .cancel)) {
            try await f.service.perform(.cancel, on: request.id, by: f.alice.actor)
        }
        let detail = try await f.services.holidays.requestDetail(id: request.id, by: f.admin.actor)
        #expect(detail.request.status == .rejected)
        #expect(detail.events.map(\.to) == [.pending, .approved, .pending, .rejected])
        #expect(detail.events.map(\.from) == [nil, .pending, .approved, .pending])
        #expect(detail.events.map(\.actor) == ["alice", "admin", "admin2", "admin"])
        #expect(detail.events.map(\.note) == ["", "ok", "rethink", "clash"])
        #expect(detail.request.decidedBy == "admin")
    }

    @Test func aRejectionNeedsAReason() async throws {
        let f = try await Fixture.make()
        let request = try await f.service.createRequest(for: f.alice.id, start: f.day(7), end: f.day(9), comment: "", actor: f.alice.actor)
        await #expect(throws: SGError.self) { try await f.service.perform(.reject, on: request.id, by: f.admin.actor, note: "   ") }
        #expect(try await f.count("holiday_events") == 1)
    }

    @Test func unknownRequestsAndOtherPeoplesRequestsAreNotFound() async throws {
        let f = try await Fixture.make()
        let request = try await f.service.createRequest(for: f.alice.id, start: f.day(7), end: f.day(9), comment: "", actor: f.alice.actor)
        await #expect(throws: SGError.notFound("Holiday request 999 does not exist.")) {
            try await f.service.perform(.approve, on: 999, by: f.admin.actor)
        }
        await #expect(throws: SGError.notFound("Holiday request \(request.id) does not exist.")) {
            try await f.service.perform(.cancel, on: request.id, by: f.bob.actor)
        }
        await #expect(throws: SGError.forbidden("Only an approver of the requester's team, their substitute or an admin can approve a holiday request.")) {
            try await f.service.perform(.approve, on: request.id, by: f.alice.actor)
        }
    }

    @Test func approvalRechecksTheBalance() async throws {
        let f = try await Fixture.make()
        let request = try await f.service.createRequest(for: f.alice.id, start: f.day(7), end: f.day(9), comment: "", actor: f.alice.actor)
        // Lowering the allowance under what is held is refused, so approval still fits...
        await #expect(throws: SGError.self) {
            try await f.service.setAllowance(employeeID: f.alice.id, year: 2026, days: 2, by: f.admin.actor)
        }
        // ...and if the data were changed behind the rules' back, approval would refuse rather than overspend.
        try await f.database.execute(sql: "INSERT INTO allowances (employee_id, year, days) VALUES (?, 2026, 2)", [.integer(f.alice.id)])
        await #expect(throws: SGError.balanceExceeded(year: 2026, requested: .days(3), remaining: .days(2), allowance: .days(2))) {
            try await f.service.perform(.approve, on: request.id, by: f.admin.actor)
        }
        #expect(try await f.services.holidays.requestDetail(id: request.id, by: f.admin.actor).request.status == .pending)
        #expect(try await f.count("holiday_events") == 1)
    }

    @Test func theDefaultAllowanceCannotDropBelowWhatIsHeld() async throws {
        let f = try await Fixture.make()
        _ = try await f.service.createRequest(for: f.alice.id, start: f.day(7), end: f.day(11), comment: "", actor: f.alice.actor)
        await #expect(throws: SGError.self) { try await f.services.company.setDefaultAllowance(4, by: f.admin.actor) }
        try await f.services.company.setDefaultAllowance(5, by: f.admin.actor)
        #expect(try await f.service.balance(employeeID: f.bob.id, year: 2026).allowance == .days(5))
        await #expect(throws: SGError.forbidden("Only an admin can change allowances.")) {
            try await f.services.company.setDefaultAllowance(30, by: f.alice.actor)
        }
    }

    @Test func deactivatedEmployeesCannotRequestButKeepTheirHistory() async throws {
        let f = try await Fixture.make()
        let request = try await f.service.createRequest(for: f.alice.id, start: f.day(7), end: f.day(9), comment: "", actor: f.alice.actor)
        _ = try await f.services.accounts.deactivate(username: "alice")
        await #expect(throws: SGError.self) {
            _ = try await f.service.createRequest(for: f.alice.id, start: f.day(14), end: f.day(15), comment: "", actor: f.admin.actor)
        }
        #expect(try await f.services.holidays.requestDetail(id: request.id, by: f.admin.actor).events.count == 1)
    }

    @Test func historyIsAppendOnlyEvenForDirectSQL() async throws {
        let f = try await Fixture.make()
        let request = try await f.service.createRequest(for: f.alice.id, start: f.day(7), end: f.day(9), comment: "", actor: f.alice.actor)
        await #expect(throws: (any Error).self) { try await f.database.execute(sql: "UPDATE holiday_events SET note = 'x'") }
        await #expect(throws: (any Error).self) { try await f.database.execute(sql: "DELETE FROM holiday_events") }
        await #expect(throws: (any Error).self) {
            try await f.database.execute(sql: "DELETE FROM holiday_requests WHERE id = ?", [.integer(request.id)])
        }
        #expect(try await f.count("holiday_events") == 1)
    }

    @Test func listsFilterAndPageInAStableOrder() async throws {
        let f = try await Fixture.make()
        var ids: [Int64] = []
        for week in 1...7 {
            let start = f.day(7 * week)
            ids.append(try await f.service.createRequest(for: f.alice.id, start: start, end: start, comment: "", actor: f.alice.actor).id)
        }
        try await f.service.perform(.approve, on: ids[2], by: f.admin.actor)
        var seen: [Int64] = []
        var filter = RequestFilter(status: .pending, year: 2026, employeeID: f.alice.id, limit: 2)
        while true {
            let page = try await f.services.holidays.requests(filter, by: f.admin.actor)
            #expect(page.total == 6)
            seen += page.items.map(\.request.id)
            guard let next = page.nextAfterID else { break }
            filter.afterID = next
        }
        #expect(seen == ids.filter { $0 != ids[2] })
        // All pages at once (sgadmin's lists) give the same requests in the same order.
        let all = try await f.services.holidays.allRequests(RequestFilter(status: .pending, year: 2026, employeeID: f.alice.id, limit: 2), by: f.admin.actor)
        #expect(all.map(\.request.id) == seen)
        // The pages say who decides each request; all pages at once do not read it (the command line shows none).
        #expect(try await f.services.holidays.requests(RequestFilter(status: .pending), by: f.admin.actor).items.allSatisfy {
            $0.approval.admins.map(\.id).sorted() == [f.admin.id, f.secondAdmin.id].sorted()
        })
        #expect(all.allSatisfy { $0.approval == ApprovalContext(admins: []) })
        #expect(try await f.services.holidays.requests(RequestFilter(year: 2025), by: f.admin.actor).total == 0)
        #expect(try await f.services.holidays.requests(RequestFilter(employeeID: f.bob.id), by: f.admin.actor).items.isEmpty)
        // A page of nothing counts and stops (indexing the row before the first one trapped).
        let none = try await f.services.holidays.requests(RequestFilter(status: .pending, limit: 0), by: f.admin.actor)
        #expect(none.items.isEmpty && none.total == 6 && none.nextAfterID == nil)
    }
}
