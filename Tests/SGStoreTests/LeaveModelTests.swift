import Foundation
import GRDB
import Testing
import SGCore
import SGTestSupport
@testable import SGStore

/// Leave types and half days through the real store.
@Suite struct LeaveModelTests {
    static func halfDay(_ date: CalendarDate, _ half: DayHalf) throws -> LeavePeriod {
        try LeavePeriod(start: date, end: date, startHalf: half, endHalf: half)
    }

    @Test func theDefaultTypesAreHolidaySickAndUnpaid() async throws {
        let f = try await Fixture.make()
        let types = try await f.services.leaveTypes.list()
        #expect(types.map(\.name) == ["holiday", "sick", "unpaid"])
        #expect(types[0] == LeaveType(
            id: 1, name: "holiday", drawsOnAllowance: true, needsApproval: true, isPrivate: false, yearlyCap: nil, isRetired: false))
        #expect(types[1] == LeaveType(
            id: 2, name: "sick", drawsOnAllowance: false, needsApproval: false, isPrivate: true, yearlyCap: nil, isRetired: false))
        #expect(types[2] == LeaveType(
            id: 3, name: "unpaid", drawsOnAllowance: false, needsApproval: true, isPrivate: false, yearlyCap: nil, isRetired: false))
    }

    @Test func aMorningAndAnAfternoonAreTwoRequestsAndHalfADayEach() async throws {
        let f = try await Fixture.make()
        let day = f.weekday(7)
        let morning = try await f.service.createRequest(
            for: f.alice.id, period: try Self.halfDay(day, .morning), comment: "dentist", actor: f.alice.actor)
        #expect(morning.duration == HalfDays(halves: 1) && morning.startHalf == .morning && morning.endHalf == .morning)
        let afternoon = try await f.service.createRequest(
            for: f.alice.id, period: try Self.halfDay(day, .afternoon), comment: "", actor: f.alice.actor)
        #expect(afternoon.duration == HalfDays(halves: 1))
        // The whole day is taken now, half by half.
        for period in [try LeavePeriod(start: day, end: day), try Self.halfDay(day, .morning)] {
            await #expect(throws: SGError.overlap(requestID: morning.id, start: day, end: day, status: .pending)) {
                try await f.service.createRequest(for: f.alice.id, period: period, comment: "", actor: f.alice.actor)
            }
        }
        let balance = try await f.service.balance(employeeID: f.alice.id, year: day.year)
        #expect(balance.pending == .days(1) && balance.remaining == HalfDays(halves: 44))
        // Cancelling the morning frees exactly that half.
        try await f.service.perform(.cancel, on: morning.id, by: f.alice.actor)
        let again = try await f.service.createRequest(
            for: f.alice.id, period: try Self.halfDay(day, .morning), comment: "", actor: f.alice.actor)
        #expect(try await f.service.balance(employeeID: f.alice.id, year: day.year).pending == .days(1))
        #expect(try await f.service.requestDetail(id: again.id, by: f.admin.actor).daysByYear == [day.year: HalfDays(halves: 1)])
    }

    @Test func sickLeaveIsRecordedAtOnceAndLeavesTheAllowanceAlone() async throws {
        let f = try await Fixture.make()
        let sick = try await f.service.createRequest(
            for: f.alice.id, period: try LeavePeriod(start: f.today, end: f.weekday(2)), leaveTypeID: LeaveType.sickID,
            comment: "flu", actor: f.alice.actor)
        #expect(sick.status == .approved && sick.leaveTypeName == "sick" && sick.decidedBy == nil)
        let detail = try await f.service.requestDetail(id: sick.id, by: f.admin.actor)
        #expect(detail.events.map(\.to) == [.approved] && detail.events[0].from == nil)
        let balance = try await f.service.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance == Balance(year: 2026, allowance: .days(23), approved: .zero, pending: .zero))
        // Overlap holds across types: no holiday on a sick day.
        await #expect(throws: SGError.self) {
            try await f.service.createRequest(for: f.alice.id, start: f.today, end: f.today, comment: "", actor: f.alice.actor)
        }
        // An admin can still revert it, and it then waits for a decision like any request.
        let reverted = try await f.service.perform(.revert, on: sick.id, by: f.admin.actor)
        #expect(reverted.status == .pending)
        // Unpaid leave waits for a decision and does not draw on the allowance either.
        let unpaid = try await f.service.createRequest(
            for: f.alice.id, period: try LeavePeriod(start: f.weekday(30), end: f.weekday(30)), leaveTypeID: LeaveType.unpaidID,
            comment: "", actor: f.alice.actor)
        #expect(unpaid.status == .pending)
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2026).pending == .zero)
    }

    @Test func aTypesYearlyCapHoldsAndIsRecheckedOnApproval() async throws {
        let f = try await Fixture.make()
        let training = try await f.services.leaveTypes.create(
            LeaveTypeChange(name: "Training", yearlyCap: .some(HalfDays(halves: 3))), by: f.admin.actor)
        #expect(training.needsApproval && !training.drawsOnAllowance && training.yearlyCap == HalfDays(halves: 3))
        let first = try await f.service.createRequest(
            for: f.alice.id, period: try LeavePeriod(start: f.weekday(7), end: f.weekday(7)), leaveTypeID: training.id,
            comment: "", actor: f.alice.actor)
        #expect(first.status == .pending)
        await #expect(throws: SGError.self) {
            try await f.service.createRequest(
                for: f.alice.id, period: try LeavePeriod(start: f.weekday(14), end: f.weekday(14)), leaveTypeID: training.id,
                comment: "", actor: f.alice.actor)
        }
        _ = try await f.service.createRequest(
            for: f.alice.id, period: try Self.halfDay(f.weekday(14), .morning), leaveTypeID: training.id, comment: "",
            actor: f.alice.actor)
        // Another employee has a cap of their own.
        _ = try await f.service.createRequest(
            for: f.bob.id, period: try LeavePeriod(start: f.weekday(7), end: f.weekday(7)), leaveTypeID: training.id,
            comment: "", actor: f.bob.actor)
        // Lowered to one day, the held 1.5 days no longer fit: approving is refused, nothing moves.
        _ = try await f.services.leaveTypes.update(id: training.id, LeaveTypeChange(yearlyCap: .some(.days(1))), by: f.admin.actor)
        await #expect(throws: SGError.self) { try await f.service.perform(.approve, on: first.id, by: f.admin.actor) }
        #expect(try await f.service.requestDetail(id: first.id, by: f.admin.actor).request.status == .pending)
        // Without a cap it goes through.
        _ = try await f.services.leaveTypes.update(id: training.id, LeaveTypeChange(yearlyCap: .some(nil)), by: f.admin.actor)
        #expect(try await f.service.perform(.approve, on: first.id, by: f.admin.actor).status == .approved)
    }

    @Test func typesAreRetiredNotDeletedOnceUsed() async throws {
        let f = try await Fixture.make()
        let parental = try await f.services.leaveTypes.create(LeaveTypeChange(name: " parental "), by: f.admin.actor)
        #expect(parental.name == "parental")
        await #expect(throws: SGError.self) {
            try await f.services.leaveTypes.create(LeaveTypeChange(name: "PARENTAL"), by: f.admin.actor)
        }
        await #expect(throws: SGError.forbidden("Only an admin can change leave types.")) {
            try await f.services.leaveTypes.create(LeaveTypeChange(name: "party"), by: f.alice.actor)
        }
        for name in ["", "  ", String(repeating: "x", count: 61), "a\u{7}b"] {
            await #expect(throws: SGError.self) { try await f.services.leaveTypes.create(LeaveTypeChange(name: name), by: f.admin.actor) }
        }
        _ = try await f.service.createRequest(
            for: f.alice.id, period: try LeavePeriod(start: f.weekday(7), end: f.weekday(8)), leaveTypeID: parental.id,
            comment: "", actor: f.alice.actor)
        await #expect(throws: SGError.self) { try await f.services.leaveTypes.delete(id: parental.id, by: f.admin.actor) }
        await #expect(throws: SGError.self) {
            try await f.services.leaveTypes.update(id: parental.id, LeaveTypeChange(drawsOnAllowance: true), by: f.admin.actor)
        }
        let retired = try await f.services.leaveTypes.update(id: parental.id, LeaveTypeChange(isRetired: true), by: f.admin.actor)
        #expect(retired.isRetired)
        await #expect(throws: SGError.self) {
            try await f.service.createRequest(
                for: f.alice.id, period: try LeavePeriod(start: f.weekday(21), end: f.weekday(21)), leaveTypeID: parental.id,
                comment: "", actor: f.alice.actor)
        }
        // Its requests keep their type.
        let page = try await f.service.requests(RequestFilter(employeeID: f.alice.id), by: f.admin.actor)
        #expect(page.items.map(\.request.leaveTypeName) == ["parental"])
        // The holiday type stays, and an unused type can go.
        await #expect(throws: SGError.self) { try await f.services.leaveTypes.delete(id: LeaveType.holidayID, by: f.admin.actor) }
        await #expect(throws: SGError.self) {
            try await f.services.leaveTypes.update(id: LeaveType.holidayID, LeaveTypeChange(isRetired: true), by: f.admin.actor)
        }
        let unused = try await f.services.leaveTypes.create(LeaveTypeChange(name: "moving"), by: f.admin.actor)
        try await f.services.leaveTypes.delete(id: unused.id, by: f.admin.actor)
        #expect(try await f.services.leaveTypes.list().map(\.name) == ["holiday", "sick", "unpaid", "parental"])
        await #expect(throws: SGError.self) {
            try await f.service.createRequest(
                for: f.alice.id, period: try LeavePeriod(start: f.weekday(21), end: f.weekday(21)), leaveTypeID: 99,
                comment: "", actor: f.alice.actor)
        }
    }

    @Test func adjustmentsAddAndRemoveDaysWithAReasonAndAreKept() async throws {
        let f = try await Fixture.make()
        let (added, balance) = try await f.service.adjustAllowance(
            employeeID: f.alice.id, year: 2026, days: HalfDays(halves: 5), reason: " Overtime in January ", by: f.admin.actor)
        #expect(added.kind == .adjust && added.days == HalfDays(halves: 5) && added.reason == "Overtime in January")
        #expect(balance == Balance(year: 2026, allowance: .days(23), adjusted: HalfDays(halves: 5), approved: .zero, pending: .zero))
        #expect(balance.remaining == HalfDays(halves: 51))
        _ = try await f.service.createRequest(for: f.alice.id, start: f.weekday(7), end: f.weekday(7), comment: "", actor: f.alice.actor)
        // Removing days cannot take the balance below what is held: 24.5 days are left, 1 is pending.
        await #expect(throws: SGError.self) {
            try await f.service.adjustAllowance(employeeID: f.alice.id, year: 2026, days: -.days(25), reason: "Too many", by: f.admin.actor)
        }
        let (_, after) = try await f.service.adjustAllowance(
            employeeID: f.alice.id, year: 2026, days: -HalfDays(halves: 49), reason: "Sabbatical", by: f.admin.actor)
        #expect(after.remaining == .zero && after.adjusted == -.days(22))
        // The allowance itself cannot drop under what the adjustments leave held either.
        await #expect(throws: SGError.self) { try await f.service.setAllowance(employeeID: f.alice.id, year: 2026, days: 22, by: f.admin.actor) }
        try await f.service.setAllowance(employeeID: f.alice.id, year: 2026, days: 25, by: f.admin.actor)
        // Refused: no reason, zero, too large, not an admin, no such employee, a bad year.
        for (days, reason) in [(HalfDays.days(1), "  "), (.zero, "x"), (.days(367), "x")] {
            await #expect(throws: SGError.self) {
                try await f.service.adjustAllowance(employeeID: f.alice.id, year: 2026, days: days, reason: reason, by: f.admin.actor)
            }
        }
        await #expect(throws: SGError.forbidden("Only an admin can change allowances.")) {
            try await f.service.adjustAllowance(employeeID: f.alice.id, year: 2026, days: .days(1), reason: "me", by: f.alice.actor)
        }
        await #expect(throws: SGError.self) {
            try await f.service.adjustAllowance(employeeID: 999, year: 2026, days: .days(1), reason: "x", by: f.admin.actor)
        }
        // The history: the employee and admins read it, nobody else; oldest first, with who and when.
        let log = try await f.service.allowanceChanges(employeeID: f.alice.id, year: 2026, by: f.alice.actor)
        #expect(log.map(\.kind) == [.adjust, .adjust, .set])
        #expect(log.map(\.days) == [HalfDays(halves: 5), -HalfDays(halves: 49), .days(25)])
        #expect(log.map(\.actor) == ["admin", "admin", "admin"] && log[1].reason == "Sabbatical" && log[0].at == f.clock.now())
        #expect(try await f.service.allowanceChanges(employeeID: f.alice.id, year: 2027, by: f.admin.actor).isEmpty)
        await #expect(throws: SGError.self) { try await f.service.allowanceChanges(employeeID: f.alice.id, year: nil, by: f.bob.actor) }
        // Everyone's balances (the CSV) count the adjustments too.
        let all = try await f.service.balances(year: 2026, by: f.admin.actor)
        await #expect(throws: SGError.self) { _ = try await f.service.balances(year: 2026, by: f.bob.actor) }
        #expect(all.first { $0.0.id == f.alice.id }?.1 == Balance(
            year: 2026, allowance: .days(25), adjusted: -.days(22), approved: .zero, pending: .days(1)))
        // The history is append-only, whoever holds the file.
        await #expect(throws: (any Error).self) { try await f.database.execute(sql: "DELETE FROM allowance_changes") }
        await #expect(throws: (any Error).self) { try await f.database.execute(sql: "UPDATE allowance_changes SET halves = 1000") }
        #expect(try await f.count("allowance_changes") == 3)
    }

    /// The fixture's employees start in 2026 (today is 2 March 2026); 2027 is the first year something carries into.
    @Test func unusedDaysCarryIntoTheNextYearUntilTheyExpire() async throws {
        let f = try await Fixture.make()
        func request(_ start: String, _ end: String) async throws -> HolidayRequest {
            try await f.service.createRequest(
                for: f.alice.id, start: Fixture.date(start), end: Fixture.date(end), comment: "", actor: f.alice.actor)
        }
        // 2026: 20 of 23 days (Mon 4 May to Fri 29 May, Mon 1 June to Fri 5 June... four whole weeks).
        let may = try await request("2026-05-04", "2026-05-29")
        #expect(may.duration == .days(20))
        var in2027 = try await f.service.balance(employeeID: f.alice.id, year: 2027)
        #expect(in2027.carriedOver == .days(3) && in2027.expiring == .days(3) && in2027.expired == .zero && in2027.remaining == .days(23))
        #expect(in2027.carryOverExpiresOn == Fixture.date("2027-03-31"))
        // Carried days are used first, up to 31 March: 2 days in February use 2 of them, 1 is left to expire.
        let february = try await request("2027-02-01", "2027-02-02")
        in2027 = try await f.service.balance(employeeID: f.alice.id, year: 2027)
        #expect(in2027.expiring == .days(1) && in2027.pending == .days(2) && in2027.remaining == .days(23))
        // A request across the expiry counts its days up to 31 March (Tue 30, Wed 31: 2 of its 4).
        let spring = try await request("2027-03-30", "2027-04-02")
        in2027 = try await f.service.balance(employeeID: f.alice.id, year: 2027)
        #expect(spring.duration == .days(4) && in2027.expiring == .zero && in2027.expired == .zero && in2027.remaining == .days(20))
        // Without the spring days, 2 carried days would be left: due to expire through 31 March, expired from 1 April.
        try await f.service.perform(.cancel, on: spring.id, by: f.alice.actor)
        f.clock.set(FixedClock(today: Fixture.date("2027-03-31")).now())
        in2027 = try await f.service.balance(employeeID: f.alice.id, year: 2027)
        #expect(in2027.expiring == .days(1) && in2027.expired == .zero && in2027.remaining == .days(23))
        f.clock.set(FixedClock(today: Fixture.date("2027-04-01")).now())
        in2027 = try await f.service.balance(employeeID: f.alice.id, year: 2027)
        #expect(in2027.expired == .days(1) && in2027.expiring == .zero && in2027.remaining == .days(23))
        f.clock.set(FixedClock(today: f.today).now())
        let springAgain = try await request("2027-03-30", "2027-04-02")
        // Days taken in 2026 leave fewer to carry: with 2027's allowance at 5, 2026 can take only what 2027 does
        // not need of its carried days.
        try await f.service.setAllowance(employeeID: f.alice.id, year: 2027, days: 5, by: f.admin.actor)
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2027).remaining == .days(2))
        _ = try await request("2026-06-01", "2026-06-02")
        await #expect(throws: SGError.self) { try await request("2026-06-03", "2026-06-03") }
        let after = try await f.service.balance(employeeID: f.alice.id, year: 2027)
        #expect(after.carriedOver == .days(1) && after.remaining == .zero)
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2026).remaining == .days(1))
        // The same holds for the company's rules: a smaller cap would overdraw 2027, so it is refused, whole.
        var patch = CompanyPatch()
        patch.carryOverCap = .zero
        await #expect(throws: SGError.self) { try await f.services.company.updateCompany(patch, by: f.admin.actor) }
        #expect(try await f.services.company.company().settings.carryOver == .standard)
        // Cancelling frees the days again, and then the company can turn carry-over off.
        try await f.service.perform(.cancel, on: february.id, by: f.alice.actor)
        try await f.service.perform(.cancel, on: springAgain.id, by: f.alice.actor)
        patch.carryOverExpiry = "04-30"
        let company = try await f.services.company.updateCompany(patch, by: f.admin.actor)
        #expect(company.settings.carryOver == CarryOverPolicy(cap: .zero, expiryMonth: 4, expiryDay: 30))
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2027).carriedOver == .zero)
        for (cap, expiry) in [(HalfDays?.none, "02-29"), (nil, "4-30"), (-HalfDays.days(1), nil), (.days(367), nil)] {
            var bad = CompanyPatch()
            bad.carryOverCap = cap
            bad.carryOverExpiry = expiry
            await #expect(throws: SGError.self) { try await f.services.company.updateCompany(bad, by: f.admin.actor) }
        }
    }

    @Test func aPartTimeWeekCountsOnlyItsDaysFromTheDayItStarts() async throws {
        let f = try await Fixture.make()
        // Made before the change: Mon 8 to Fri 12 June, 5 days, and it keeps them.
        let before = try await f.service.createRequest(
            for: f.alice.id, start: Fixture.date("2026-06-08"), end: Fixture.date("2026-06-12"), comment: "", actor: f.alice.actor)
        let weeks = try await f.service.setWorkingWeek(
            employeeID: f.alice.id, from: Fixture.date("2026-06-01"), week: WorkingWeek(code: "1234"), by: f.admin.actor)
        #expect(weeks.map(\.startsOn) == [Fixture.date("2026-06-01")] && weeks[0].setBy == "admin")
        #expect(try await f.service.requestDetail(id: before.id, by: f.admin.actor).request.duration == .days(5))
        // Mon 15 to Fri 19 June: Friday is not alice's working day any more; bob still works it.
        let after = try await f.service.createRequest(
            for: f.alice.id, start: Fixture.date("2026-06-15"), end: Fixture.date("2026-06-19"), comment: "", actor: f.alice.actor)
        #expect(after.duration == .days(4))
        let bobs = try await f.service.createRequest(
            for: f.bob.id, start: Fixture.date("2026-06-15"), end: Fixture.date("2026-06-19"), comment: "", actor: f.bob.actor)
        #expect(bobs.duration == .days(5))
        await #expect(throws: SGError.self) {
            try await f.service.createRequest(
                for: f.alice.id, start: Fixture.date("2026-06-26"), end: Fixture.date("2026-06-26"), comment: "", actor: f.alice.actor)
        }
        // Back to the company's week from September: a request across the change counts each part by its week.
        _ = try await f.service.setWorkingWeek(employeeID: f.alice.id, from: Fixture.date("2026-09-01"), week: nil, by: f.admin.actor)
        let across = try await f.service.createRequest(
            for: f.alice.id, start: Fixture.date("2026-08-24"), end: Fixture.date("2026-09-04"), comment: "", actor: f.alice.actor)
        // 24-27 Aug and Mon 31 Aug (Mon-Thu; Fri 28 off), then Tue 1 to Fri 4 Sep on the company's week: 5 + 4.
        #expect(across.duration == .days(9))
        // The employee and admins read the history; nobody else; only admins change it, from today on.
        let read = try await f.service.workingWeeks(employeeID: f.alice.id, by: f.alice.actor)
        #expect(read.company == .mondayToFriday && read.changes.map(\.week) == [WorkingWeek(code: "1234"), nil])
        await #expect(throws: SGError.self) { try await f.service.workingWeeks(employeeID: f.alice.id, by: f.bob.actor) }
        await #expect(throws: SGError.self) {
            try await f.service.setWorkingWeek(employeeID: f.alice.id, from: f.day(-1), week: .mondayToFriday, by: f.admin.actor)
        }
        await #expect(throws: SGError.self) {
            try await f.service.setWorkingWeek(employeeID: f.alice.id, from: f.day(3), week: .mondayToFriday, by: f.alice.actor)
        }
        await #expect(throws: SGError.self) {
            try await f.service.setWorkingWeek(employeeID: 999, from: f.day(3), week: .mondayToFriday, by: f.admin.actor)
        }
        // Setting the same day again replaces that entry.
        let replaced = try await f.service.setWorkingWeek(
            employeeID: f.alice.id, from: Fixture.date("2026-09-01"), week: WorkingWeek(code: "135"), by: f.admin.actor)
        #expect(replaced.count == 2 && replaced[1].week == WorkingWeek(code: "135"))
    }

    @Test func aNewDefaultAllowanceCountsTheAdjustments() async throws {
        let f = try await Fixture.make()
        _ = try await f.service.adjustAllowance(employeeID: f.alice.id, year: 2026, days: .days(3), reason: "Bonus", by: f.admin.actor)
        _ = try await f.service.createRequest(for: f.alice.id, start: f.weekday(7), end: f.weekday(7).adding(days: 14)!, comment: "", actor: f.alice.actor)
        // 11 days held, 3 of them covered by the adjustment: a default of 8 still fits, 7 does not.
        await #expect(throws: SGError.self) { try await f.services.company.setDefaultAllowance(7, by: f.admin.actor) }
        try await f.services.company.setDefaultAllowance(8, by: f.admin.actor)
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2026).remaining == .zero)
    }

    /// Random sequences of requests (whole and half days, three types), decisions, allowances and adjustments:
    /// after every step the balance equals what the requests and the history on record add up to, and never goes
    /// below zero.
    @Test(arguments: [1, 2, 3, 4, 5])
    func theBalanceIsAlwaysTheSumOfWhatIsHeld(seed: UInt64) async throws {
        let f = try await Fixture.make()
        var random = SeededRandom(seed: seed)
        let days = (0..<40).map { f.weekday(7 + $0) }
        let types = [LeaveType.holidayID, LeaveType.holidayID, LeaveType.sickID, LeaveType.unpaidID]
        var ids: [Int64] = []
        for _ in 0..<120 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let start = days.randomElement(using: &random)!
                let end = Bool.random(using: &random) ? start : days[min(days.count - 1, days.firstIndex(of: start)! + Int.random(in: 0...3, using: &random))]
                let startHalf = DayHalf.allCases.randomElement(using: &random)!
                let endHalf = DayHalf.allCases.randomElement(using: &random)!
                guard let period = try? LeavePeriod(start: start, end: end, startHalf: startHalf, endHalf: endHalf) else { continue }
                if let request = try? await f.service.createRequest(
                    for: f.alice.id, period: period, leaveTypeID: types.randomElement(using: &random)!, comment: "",
                    actor: f.alice.actor) { ids.append(request.id) }
            case 5..<8:
                guard let id = ids.randomElement(using: &random) else { continue }
                let action = HolidayAction.allCases.randomElement(using: &random)!
                _ = try? await f.service.perform(action, on: id, by: action == .cancel ? f.alice.actor : f.admin.actor, note: "x")
            case 8:
                _ = try? await f.service.setAllowance(
                    employeeID: f.alice.id, year: 2026, days: Int.random(in: 0...12, using: &random), by: f.admin.actor)
            default:
                _ = try? await f.service.adjustAllowance(
                    employeeID: f.alice.id, year: 2026, days: HalfDays(halves: Int.random(in: -6...6, using: &random)),
                    reason: "random", by: f.admin.actor)
            }
            let requests = try await f.service.requests(RequestFilter(employeeID: f.alice.id, limit: 200), by: f.admin.actor).items.map(\.request)
            var approved = HalfDays.zero, pending = HalfDays.zero
            for request in requests where request.leaveTypeID == LeaveType.holidayID {
                if request.status == .approved { approved += request.duration }
                if request.status == .pending { pending += request.duration }
            }
            let balance = try await f.service.balance(employeeID: f.alice.id, year: 2026)
            #expect(balance.approved == approved && balance.pending == pending)
            let log = try await f.service.allowanceChanges(employeeID: f.alice.id, year: 2026, by: f.admin.actor)
            #expect(balance.adjusted == log.filter { $0.kind == .adjust }.map(\.days).reduce(.zero, +))
            #expect(balance.allowance == log.last { $0.kind == .set }?.days ?? .days(23))
            #expect(balance.remaining == balance.allowance + balance.adjusted - approved - pending)
            #expect(balance.remaining >= .zero)
            // No two held requests share a half day.
            let held = requests.filter { $0.status.holdsDays }
            for (index, a) in held.enumerated() {
                for b in held[(index + 1)...] { #expect(!a.period.overlaps(b.period), "\(a.id) and \(b.id)") }
            }
        }
    }

    /// What the schema's triggers keep in held_days, and the same figures counted afresh from every request's days.
    static func heldDays(_ database: AppDatabase) async throws -> (kept: [[Int]], counted: [[Int]]) {
        // Each row as one line of numbers, which reads alike on both engines.
        func rows(_ sql: String) async throws -> [[Int]] {
            try await database.column(sql: sql).map { ($0 ?? "").split(separator: " ").map { Int($0) ?? -1 } }
        }
        let kept = try await rows("""
            SELECT employee_id || ' ' || year || ' ' || approved_halves || ' ' || pending_halves || ' ' || by_expiry_halves
                   || ' ' || spanning_expiry
            FROM held_days WHERE approved_halves + pending_halves > 0 ORDER BY employee_id, year
            """)
        let expiry = database.dialect == .sqlite ? "printf('%04d-', d.year) || c.carry_over_expiry" : "sg_expiry(d.year, c.carry_over_expiry)"
        let counted = try await rows("""
            SELECT d.employee_id || ' ' || d.year || ' ' || SUM(CASE WHEN r.status = 'approved' THEN d.halves ELSE 0 END)
                   || ' ' || SUM(CASE WHEN r.status IN ('pending', 'approved-by-manager') THEN d.halves ELSE 0 END)
                   || ' ' || SUM(CASE WHEN r.end_date <= \(expiry) THEN d.halves ELSE 0 END)
                   || ' ' || SUM(CASE WHEN r.start_date <= \(expiry) AND r.end_date > \(expiry) THEN 1 ELSE 0 END)
            FROM holiday_request_days d JOIN leave_types t ON t.id = d.leave_type_id AND t.draws_on_allowance = 1
            JOIN holiday_requests r ON r.id = d.request_id JOIN company c ON c.id = 1
            WHERE \(Rows.holdsDays) GROUP BY d.employee_id, d.year ORDER BY d.employee_id, d.year
            """)
        return (kept, counted)
    }

    /// Random requests of two employees around year ends and expiry dates, decisions, and changes of the expiry
    /// date: after every step the per-year totals the balances read equal a count of the requests themselves, and
    /// every balance equals the one computed from those requests alone.
    @Test(arguments: [11, 12, 13])
    func heldDaysAlwaysAgreeWithTheRequests(seed: UInt64) async throws {
        let f = try await Fixture.make()
        var random = SeededRandom(seed: seed)
        let first = Fixture.date("2026-03-16")
        let types = [LeaveType.holidayID, LeaveType.holidayID, LeaveType.sickID]
        let people = [f.alice, f.bob]
        var ids: [Int64] = []
        for step in 0..<80 {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                // Near 31 March 2026, the turn of the year, or 31 March 2027; up to three weeks long.
                let base = [first, Fixture.date("2026-12-14"), Fixture.date("2027-03-15")].randomElement(using: &random)!
                let start = base.adding(days: Int.random(in: 0...30, using: &random))!
                let end = start.adding(days: Int.random(in: 0...20, using: &random))!
                let person = people.randomElement(using: &random)!
                if let request = try? await f.service.createRequest(
                    for: person.id, period: try LeavePeriod(start: start, end: end), leaveTypeID: types.randomElement(using: &random)!,
                    comment: "", actor: person.actor) { ids.append(request.id) }
            case 5..<8:
                guard let id = ids.randomElement(using: &random) else { continue }
                let action = HolidayAction.allCases.randomElement(using: &random)!
                let owner = try await f.service.requestDetail(id: id, by: f.admin.actor).request.employeeID
                let actor = action == .cancel ? people.first { $0.id == owner }!.actor : f.admin.actor
                _ = try? await f.service.perform(action, on: id, by: actor, note: "x")
            default:
                var patch = CompanyPatch()
                patch.carryOverExpiry = ["03-31", "04-07", "01-05", "12-31", "03-20"].randomElement(using: &random)!
                _ = try? await f.services.company.updateCompany(patch, by: f.admin.actor)
            }
            let (kept, counted) = try await Self.heldDays(f.database)
            #expect(kept == counted, "step \(step)")
            for person in people {
                var details: [RequestDetail] = []
                for item in try await f.service.requests(RequestFilter(employeeID: person.id, limit: 200), by: f.admin.actor).items
                where item.request.leaveTypeID == LeaveType.holidayID {
                    details.append(try await f.service.requestDetail(id: item.request.id, by: f.admin.actor))
                }
                for year in [2026, 2027] {
                    let balance = try await f.service.balance(employeeID: person.id, year: year)
                    let approved = details.filter { $0.request.status == .approved }.compactMap { $0.daysByYear[year] }.reduce(.zero, +)
                    let pending = details.filter { $0.request.status == .pending }.compactMap { $0.daysByYear[year] }.reduce(.zero, +)
                    #expect(balance.approved == approved && balance.pending == pending, "step \(step), \(person.username) \(year)")
                    #expect(balance.remaining >= .zero)
                }
            }
        }
        #expect(!ids.isEmpty)
    }

    /// Regional public holidays: each employee's requests skip their own calendar's holidays; moving an employee
    /// leaves the requests they made alone; calendars in use or the first one are not deleted.
    @Test func durationsFollowTheEmployeesHolidayCalendar() async throws {
        let f = try await Fixture.make()
        let company = f.services.company
        let munich = try await company.createHolidayCalendar(name: "  Munich office ", by: f.admin.actor)
        #expect(munich.name == "Munich office" && munich.employeeCount == 0)
        // 24 August 2026 is a Monday: a holiday in Munich only; 25 August in the first calendar only.
        try await company.addPublicHoliday(PublicHoliday(date: Fixture.date("2026-08-24"), name: "Local feast"), calendarID: munich.id, by: f.admin.actor)
        try await company.addPublicHoliday(PublicHoliday(date: Fixture.date("2026-08-25"), name: "Other feast"), by: f.admin.actor)
        // The same day may be a holiday in two calendars, but not twice in one.
        try await company.addPublicHoliday(PublicHoliday(date: Fixture.date("2026-08-25"), name: "Both"), calendarID: munich.id, by: f.admin.actor)
        await #expect(throws: SGError.self) {
            try await company.addPublicHoliday(PublicHoliday(date: Fixture.date("2026-08-24"), name: "Again"), calendarID: munich.id, by: f.admin.actor)
        }
        #expect(try await company.setHolidayCalendar(ofEmployee: f.bob.id, to: munich.id, by: f.admin.actor).employeeCount == 1)
        let week = try LeavePeriod(start: Fixture.date("2026-08-24"), end: Fixture.date("2026-08-28"))
        let bobs = try await f.service.createRequest(for: f.bob.id, period: week, comment: "", actor: f.bob.actor)
        let alices = try await f.service.createRequest(for: f.alice.id, period: week, comment: "", actor: f.alice.actor)
        #expect(bobs.duration == .days(3) && alices.duration == .days(4))
        #expect(try await company.publicHolidays(year: 2026, ofEmployee: f.bob.id).map(\.name) == ["Local feast", "Both"])
        #expect(try await company.publicHolidays(year: 2026, ofEmployee: f.alice.id).map(\.name) == ["Other feast"])
        // Moving bob back keeps the days his request was counted with; his next request counts the first calendar.
        _ = try await company.setHolidayCalendar(ofEmployee: f.bob.id, to: HolidayCalendar.defaultID, by: f.admin.actor)
        #expect(try await f.service.requestDetail(id: bobs.id, by: f.admin.actor).request.duration == .days(3))
        let next = try await f.service.createRequest(
            for: f.bob.id, period: try LeavePeriod(start: Fixture.date("2026-08-31"), end: Fixture.date("2026-09-04")), comment: "",
            actor: f.bob.actor)
        #expect(next.duration == .days(5))
        #expect(try await company.holidayCalendar(ofEmployee: f.bob.id, by: f.bob.actor).id == HolidayCalendar.defaultID)
        // Rules: only admins; names unique without case and not only digits; the first calendar and calendars in use stay.
        await #expect(throws: SGError.forbidden("Only an admin can move an employee to another holiday calendar.")) {
            try await company.setHolidayCalendar(ofEmployee: f.alice.id, to: munich.id, by: f.alice.actor)
        }
        await #expect(throws: SGError.forbidden("Only an admin can read another employee's holiday calendar.")) {
            try await company.holidayCalendar(ofEmployee: f.bob.id, by: f.alice.actor)
        }
        for name in ["munich OFFICE", "2026", "", "a\nb", String(repeating: "x", count: 61)] {
            await #expect(throws: SGError.self) { try await company.createHolidayCalendar(name: name, by: f.admin.actor) }
        }
        await #expect(throws: SGError.invalid(field: "calendarId", message: "there is no holiday calendar 99")) {
            try await company.setHolidayCalendar(ofEmployee: f.alice.id, to: 99, by: f.admin.actor)
        }
        _ = try await company.setHolidayCalendar(ofEmployee: f.alice.id, to: munich.id, by: f.admin.actor)
        await #expect(throws: SGError.self) { try await company.deleteHolidayCalendar(id: munich.id, by: f.admin.actor) }
        await #expect(throws: SGError.self) { try await company.deleteHolidayCalendar(id: HolidayCalendar.defaultID, by: f.admin.actor) }
        _ = try await company.setHolidayCalendar(ofEmployee: f.alice.id, to: HolidayCalendar.defaultID, by: f.admin.actor)
        #expect(try await company.renameHolidayCalendar(id: munich.id, to: "Bavaria", by: f.admin.actor).name == "Bavaria")
        try await company.deleteHolidayCalendar(id: munich.id, by: f.admin.actor)
        #expect(try await company.holidayCalendars().map(\.name) == ["default"])
        let left = try await f.database.column(sql: "SELECT COUNT(*) FROM public_holidays WHERE calendar_id = ?", [.integer(munich.id)])
        #expect(left == ["0"])
        await #expect(throws: SGError.notFound("Holiday calendar \(munich.id) does not exist.")) {
            try await company.publicHolidays(year: 2026, calendarID: munich.id)
        }
    }

    @Test func racingRequestsForTheLastHalfDayNeverOverspend() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path)
        try await f.service.setAllowance(employeeID: f.alice.id, year: 2026, days: 1, by: f.admin.actor)
        _ = try await f.service.createRequest(
            for: f.alice.id, period: try Self.halfDay(f.weekday(7), .morning), comment: "", actor: f.alice.actor)
        let other = try AppDatabase.open(path: path.path).services(clock: f.clock).holidays
        // Half a day is left; forty half days on distinct days race for it from two connection pools.
        let periods = try (0..<40).map { try Self.halfDay(f.weekday(14 + $0), $0.isMultiple(of: 2) ? .morning : .afternoon) }
        let successes = await withTaskGroup(of: Bool.self) { group in
            for (index, period) in periods.enumerated() {
                let service = index.isMultiple(of: 2) ? f.service : other
                group.addTask {
                    (try? await service.createRequest(for: f.alice.id, period: period, comment: "", actor: f.alice.actor)) != nil
                }
            }
            var count = 0
            for await success in group where success { count += 1 }
            return count
        }
        #expect(successes == 1)
        let balance = try await f.service.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance.pending == .days(1) && balance.remaining == .zero)
    }

    /// A database made by the previous schema (0001-0005) keeps every day when this program opens it.
    @Test func aDatabaseOfThePreviousSchemaMigratesWithoutLosingADay() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        try await OlderSchemas.make(at: path.path, before: "0006") { db in
            try db.execute(sql: """
                INSERT INTO employees (id, username, name, surname, email, created_at) VALUES
                    (1, 'alice', 'Alice', 'Example', 'alice@example.com', '2025-01-01T00:00:00.000Z');
                INSERT INTO holiday_requests (id, employee_id, start_date, end_date, working_days, status, comment, created_at, updated_at)
                VALUES (1, 1, '2026-12-28', '2027-01-08', 9, 'approved', 'winter', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z'),
                       (2, 1, '2026-03-09', '2026-03-10', 2, 'pending', '', '2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'),
                       (3, 1, '2026-04-01', '2026-04-01', 1, 'cancelled', '', '2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z');
                INSERT INTO holiday_request_days (request_id, employee_id, year, days) VALUES
                    (1, 1, 2026, 4), (1, 1, 2027, 5), (2, 1, 2026, 2), (3, 1, 2026, 1);
                INSERT INTO public_holidays (date, name) VALUES ('2026-12-25', 'Christmas Day');
                INSERT INTO holiday_events (request_id, from_status, to_status, actor, at) VALUES
                    (1, NULL, 'pending', 'alice', '2026-11-01T00:00:00.000Z'),
                    (1, 'pending', 'approved', 'admin', '2026-11-01T00:00:00.000Z');
                """)
        }
        let database = try AppDatabase.open(path: path.path)
        #expect(try database.appliedMigrations().contains("0006_leave_types_and_half_days"))
        let services = database.services(clock: FixedClock(today: Fixture.today))
        let admin = Fixture.operatorActor
        let winter = try await services.holidays.requestDetail(id: 1, by: admin)
        #expect(winter.request.duration == .days(9) && winter.request.leaveTypeID == LeaveType.holidayID)
        #expect(winter.request.isWholeDays)
        #expect(winter.daysByYear == [2026: .days(4), 2027: .days(5)])
        #expect(winter.request.status == .approved && winter.events.count == 2)
        #expect(try await services.holidays.requestDetail(id: 2, by: admin).request.duration == .days(2))
        let balance = try await services.holidays.balance(employeeID: 1, year: 2026)
        // alice's record starts in 2025: 5 of its unused days carry into 2026, where 2 are used by 31 March (the
        // pending 9-10 March) and 3 expire.
        #expect(balance == Balance(
            year: 2026, allowance: .days(23), carriedOver: .days(5), expiring: .days(3), carryOverExpiresOn: Fixture.date("2026-03-31"),
            approved: .days(4), pending: .days(2)))
        #expect(try await services.holidays.balance(employeeID: 1, year: 2027).approved == .days(5))
        let (kept, counted) = try await Self.heldDays(database)
        #expect(kept == counted && kept == [[1, 2026, 8, 4, 4, 0], [1, 2027, 10, 0, 10, 0]])
        // The public holidays kept so far are the first calendar's, and everyone belongs to it.
        #expect(try await services.company.publicHolidays(year: 2026, ofEmployee: 1) == [PublicHoliday(date: Fixture.date("2026-12-25"), name: "Christmas Day")])
        #expect(try await services.company.holidayCalendars() == [HolidayCalendar(id: 1, name: "default", employeeCount: 1)])
        // The history is still append-only, and the per-year days fixed.
        await #expect(throws: (any Error).self) {
            try await database.write { (db: Database) in try db.execute(sql: "UPDATE holiday_request_days SET halves = 1") }
        }
    }
}

extension HolidayRequest {
    var isWholeDays: Bool { period.isWholeDays }
}
