import Foundation
import Testing
@testable import SGCore

/// Accrual plans against hand-computed tables: what is earned on a day, what may be requested, and from when a
/// request fits.
@Suite struct AccrualTests {
    static func day(_ iso: String) -> CalendarDate { CalendarDate(iso: iso)! }
    static func plan(_ code: String) -> AccrualPlan { AccrualPlan(code: code)! }

    @Test func codesReadBackAsWritten() throws {
        for code in ["year", "month:start:none", "month:end:5", "quarter:start:year", "quarter:end:none", "year:end:none"] {
            #expect(AccrualPlan(code: code)?.code == code)
        }
        for bad in ["", "month", "month:start", "week:start:none", "month:middle:none", "month:start:0", "month:start:-1", "month:start:367",
                    "month:start:1.5", "year:start:none:x"] {
            #expect(AccrualPlan(code: bad) == nil, "\(bad)")
        }
        // The yearly plan credits all on its first day: no advance to keep.
        #expect(AccrualPlan(code: "year:start:year")?.code == "year" && AccrualPlan(code: "year:start:5") == .yearly)
        #expect(throws: SGError.invalid(field: "accrual.period", message: "period 'week' is not one of year, quarter, month")) {
            try AccrualPlan.parse(period: "week", credited: nil, advance: nil, field: "accrual")
        }
        #expect(try AccrualPlan.parse(period: "month", credited: nil, advance: "3", field: "accrual").code == "month:start:3")
    }

    @Test func aMonthlyPlanEarnsATwelfthAMonthRoundedDownToHalfDays() {
        // 23 days = 46 halves: after n credits, 46 × n / 12 halves, rounded down.
        let monthly = Self.plan("month:start:none"), employment = Employment()
        let table: [(String, HalfDays)] = [
            ("2026-01-01", HalfDays(halves: 3)), ("2026-01-31", HalfDays(halves: 3)), ("2026-02-01", HalfDays(halves: 7)),
            ("2026-03-02", HalfDays(halves: 11)), ("2026-06-15", HalfDays(halves: 23)), ("2026-12-01", .days(23)),
        ]
        for (day, earned) in table {
            #expect(monthly.earned(of: .days(23), in: 2026, employment: employment, on: Self.day(day)) == earned, "\(day)")
        }
        // Before the year nothing; after it, everything.
        #expect(monthly.earned(of: .days(23), in: 2026, employment: employment, on: Self.day("2025-12-31")) == .zero)
        #expect(monthly.earned(of: .days(23), in: 2026, employment: employment, on: Self.day("2027-01-05")) == .days(23))
        // Credited at the end: January's twelfth on 31 January.
        let atEnd = Self.plan("month:end:none")
        #expect(atEnd.earned(of: .days(23), in: 2026, employment: employment, on: Self.day("2026-01-30")) == .zero)
        #expect(atEnd.earned(of: .days(23), in: 2026, employment: employment, on: Self.day("2026-01-31")) == HalfDays(halves: 3))
    }

    @Test func aJoinerEarnsTheirProRatedAllowanceOverTheMonthsEmployed() {
        // Joined 1 September, 7.5 days pro-rated: four credits of 15 halves, 15 × n / 4 halves.
        let employment = Employment(start: Self.day("2026-09-01"))
        let monthly = Self.plan("month:start:none")
        #expect(monthly.creditDays(in: 2026, employment: employment) == ["2026-09-01", "2026-10-01", "2026-11-01", "2026-12-01"].map(Self.day))
        let earned = ["2026-09-01", "2026-10-01", "2026-11-01", "2026-12-01"].map {
            monthly.earned(of: HalfDays(halves: 15), in: 2026, employment: employment, on: Self.day($0)).halves
        }
        #expect(earned == [3, 7, 11, 15])
        // A leaver on 15 March under a quarterly plan credited at the end: the first quarter on the last day employed.
        let leaver = Employment(end: Self.day("2027-03-15"))
        #expect(Self.plan("quarter:end:none").creditDays(in: 2027, employment: leaver) == [Self.day("2027-03-15")])
        // A joiner mid-month is credited on their first day under a plan credited at the start.
        #expect(monthly.creditDays(in: 2026, employment: Employment(start: Self.day("2026-09-15"))).first == Self.day("2026-09-15"))
    }

    @Test func theAdvanceSaysHowMuchNotYetEarnedMayBeRequested() {
        let employment = Employment(), on = Self.day("2026-03-02")
        // 5.5 earned of 23: 17.5 not earned yet.
        #expect(Self.plan("month:start:none").withheld(of: .days(23), in: 2026, employment: employment, on: on) == HalfDays(halves: 35))
        #expect(Self.plan("month:start:5").withheld(of: .days(23), in: 2026, employment: employment, on: on) == HalfDays(halves: 25))
        #expect(Self.plan("month:start:20").withheld(of: .days(23), in: 2026, employment: employment, on: on) == .zero)
        #expect(Self.plan("month:start:year").withheld(of: .days(23), in: 2026, employment: employment, on: on) == .zero)

        let balance = Balance(year: 2026, allowance: .days(23), carriedOver: .days(2), approved: .days(1), pending: .zero)
        let applied = Self.plan("month:start:none").apply(to: balance, employment: employment, on: on)
        // 25 available, 1 taken: 24 remain, of which 17.5 are not earned yet; carried days are there from the start.
        #expect(applied.remaining == .days(24) && applied.accrual?.earned == HalfDays(halves: 11) && applied.requestable == HalfDays(halves: 13))
        #expect(AccrualPlan.yearly.apply(to: balance, employment: employment, on: on) == balance)
        #expect(balance.requestable == balance.remaining)
    }

    @Test func aRequestBeyondWhatIsEarnedFitsFromTheDayEnoughIsCredited() {
        let employment = Employment(), today = Self.day("2026-03-02")
        let monthly = Self.plan("month:start:none")
        // 6 days held of 23: 17 remain; from 1 April 15 halves are earned, 31 withheld ≤ 34.
        var balance = monthly.apply(to: Balance(year: 2026, allowance: .days(23), approved: .zero, pending: .days(6)), employment: employment, on: today)
        #expect(balance.requestable == .zero && balance.remaining < balance.accrual!.withheld)
        #expect(monthly.firstDay(fitting: .zero, in: balance, employment: employment, after: today) == Self.day("2026-04-01"))
        // 20 days: 3 remain, which fits only once 20 are earned, on 1 November (46 × 11 / 12 = 42 halves).
        balance = monthly.apply(to: Balance(year: 2026, allowance: .days(23), approved: .zero, pending: .days(20)), employment: employment, on: today)
        #expect(monthly.firstDay(fitting: .zero, in: balance, employment: employment, after: today) == Self.day("2026-11-01"))
        // Nothing fits a balance already below zero.
        balance = monthly.apply(to: Balance(year: 2026, allowance: .days(23), approved: .zero, pending: .days(24)), employment: employment, on: today)
        #expect(monthly.firstDay(fitting: .zero, in: balance, employment: employment, after: today) == nil)
    }
}
