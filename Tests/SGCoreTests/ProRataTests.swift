import Foundation
import Testing
@testable import SGCore

/// Pro rata against hand-computed tables: a joiner, a leaver, a week that changes, a leap year, the roundings.
@Suite struct ProRataTests {
    static let company = WorkingWeek.mondayToFriday

    static func grant(
        _ method: ProRataPolicy.Method, _ rounding: ProRataPolicy.Rounding = .nearest, whole: Int = 23, year: Int,
        start: String? = nil, end: String? = nil, weeks: [(String, Set<Int>)] = []
    ) -> AllowanceGrant {
        let changes = weeks.map { WorkingWeekChange(employeeID: 1, startsOn: CalendarDate(iso: $0.0)!, week: WorkingWeek(weekdays: $0.1), setBy: "admin", setAt: Date()) }
        return ProRata.grant(
            of: whole, year: year, employment: Employment(start: start.flatMap(CalendarDate.init(iso:)), end: end.flatMap(CalendarDate.init(iso:))),
            schedule: WorkingSchedule(company: company, changes: changes), policy: ProRataPolicy(method: method, rounding: rounding))
    }

    @Test func aJoinerOnTheFirstOfSeptember() {
        // Whole months: September to December, 4/12 of 23 = 7.67.
        #expect(Self.grant(.wholeMonths, year: 2026, start: "2026-09-01") == AllowanceGrant(days: HalfDays(halves: 15), formula: "23 × 4/12 = 7.67 → 7.5"))
        #expect(Self.grant(.wholeMonths, .up, year: 2026, start: "2026-09-01").days == .days(8))
        #expect(Self.grant(.wholeMonths, .down, year: 2026, start: "2026-09-01").days == HalfDays(halves: 15))
        // Calendar days: 122 of 365, 7.69.
        #expect(Self.grant(.calendarDays, year: 2026, start: "2026-09-01") == AllowanceGrant(days: HalfDays(halves: 15), formula: "23 × 122/365 = 7.69 → 7.5"))
        #expect(Self.grant(.calendarDays, .up, year: 2026, start: "2026-09-01").days == .days(8))
        // A start on the 2nd leaves September out of the whole months.
        #expect(Self.grant(.wholeMonths, year: 2026, start: "2026-09-02").formula == "23 × 3/12 = 5.75 → 6")
        // The next year is whole again.
        #expect(Self.grant(.wholeMonths, year: 2027, start: "2026-09-01") == AllowanceGrant(days: .days(23)))
    }

    @Test func aLeaverOnTheFifteenthOfMarch() {
        // Whole months: January and February, 2/12 of 23 = 3.83.
        #expect(Self.grant(.wholeMonths, year: 2027, end: "2027-03-15") == AllowanceGrant(days: .days(4), formula: "23 × 2/12 = 3.83 → 4"))
        #expect(Self.grant(.wholeMonths, .down, year: 2027, end: "2027-03-15").days == HalfDays(halves: 7))
        // Calendar days: 31 + 28 + 15 = 74 of 365, 4.66.
        #expect(Self.grant(.calendarDays, year: 2027, end: "2027-03-15") == AllowanceGrant(days: HalfDays(halves: 9), formula: "23 × 74/365 = 4.66 → 4.5"))
        #expect(Self.grant(.calendarDays, .up, year: 2027, end: "2027-03-15").days == .days(5))
        // After the end: nothing.
        #expect(Self.grant(.wholeMonths, year: 2028, end: "2027-03-15") == AllowanceGrant(days: .zero, formula: "23 × 0/12 = 0"))
        #expect(Self.grant(.calendarDays, year: 2028, end: "2027-03-15") == AllowanceGrant(days: .zero, formula: "23 × 0/366 = 0"))
    }

    @Test func fiveDaysAWeekThenFourFromTheFirstOfMay() {
        let fourDays: Set<Int> = [1, 2, 3, 4]
        // Months: 4/12 at 5 days, 8/12 at 4 of 5: 23 × (4 + 6.4)/12 = 19.93.
        #expect(Self.grant(.wholeMonths, year: 2026, weeks: [("2026-05-01", fourDays)])
            == AllowanceGrant(days: .days(20), formula: "23 × (4/12 + 8/12 × 4/5) = 19.93 → 20"))
        #expect(Self.grant(.wholeMonths, .down, year: 2026, weeks: [("2026-05-01", fourDays)]).days == HalfDays(halves: 39))
        // Days: 120 at 5, 245 at 4 of 5: 23 × 316/365 = 19.91.
        #expect(Self.grant(.calendarDays, year: 2026, weeks: [("2026-05-01", fourDays)])
            == AllowanceGrant(days: .days(20), formula: "23 × (120/365 + 245/365 × 4/5) = 19.91 → 20"))
        // A change in the middle of a month counts from the next month for whole months; by the day otherwise.
        #expect(Self.grant(.wholeMonths, year: 2026, weeks: [("2026-05-15", fourDays)]).formula == "23 × (5/12 + 7/12 × 4/5) = 20.32 → 20.5")
        // A week of as many days is no change; a year on another week throughout is pro-rated as a whole.
        #expect(Self.grant(.calendarDays, year: 2026, weeks: [("2026-05-01", [2, 3, 4, 5, 6])]) == AllowanceGrant(days: .days(23)))
        #expect(Self.grant(.wholeMonths, year: 2027, weeks: [("2026-05-01", fourDays)]).formula == "23 × 12/12 × 4/5 = 18.4 → 18.5")
        // Joining on a part-time week: both at once.
        #expect(Self.grant(.wholeMonths, year: 2026, start: "2026-09-01", weeks: [("2026-09-01", fourDays)]).formula
            == "23 × 4/12 × 4/5 = 6.13 → 6")
    }

    @Test func aLeapYearHas366DaysAndAQuarterRoundsUpToTheNearestHalf() {
        // 1 July to 31 December 2028: 184 of 366.
        #expect(Self.grant(.calendarDays, year: 2028, start: "2028-07-01").formula == "23 × 184/366 = 11.56 → 11.5")
        #expect(Self.grant(.wholeMonths, whole: 1, year: 2026, start: "2026-10-01") == AllowanceGrant(days: HalfDays(halves: 1), formula: "1 × 3/12 = 0.25 → 0.5"))
        #expect(Self.grant(.wholeMonths, .down, whole: 1, year: 2026, start: "2026-10-01").days == .zero)
        #expect(Self.grant(.wholeMonths, whole: 24, year: 2026, start: "2026-07-01") == AllowanceGrant(days: .days(12), formula: "24 × 6/12 = 12"))
    }

    @Test func offOrAWholeYearIsTheWholeAllowance() {
        #expect(Self.grant(.off, year: 2026, start: "2026-09-01", weeks: [("2026-05-01", [1])]) == AllowanceGrant(days: .days(23)))
        #expect(Self.grant(.calendarDays, year: 2026) == AllowanceGrant(days: .days(23)))
        #expect(Self.grant(.wholeMonths, year: 2026, start: "2020-01-01", end: "2030-12-31") == AllowanceGrant(days: .days(23)))
    }

    @Test func seniorityTiersCountFromTheYearOrTheAnniversary() {
        let tiers = [SeniorityPolicy.Tier(years: 5, days: 1), SeniorityPolicy.Tier(years: 10, days: 2)]
        let byYear = SeniorityPolicy(tiers: tiers, from: .year)!, byAnniversary = SeniorityPolicy(tiers: tiers, from: .anniversary)!
        func grant(_ method: ProRataPolicy.Method, _ seniority: SeniorityPolicy, year: Int, start: String, end: String? = nil) -> AllowanceGrant {
            ProRata.grant(
                of: 23, year: year, employment: Employment(start: CalendarDate(iso: start), end: end.flatMap(CalendarDate.init(iso:))),
                schedule: WorkingSchedule(company: Self.company), policy: ProRataPolicy(method: method), seniority: seniority)
        }
        // Employed since 1 July 2021: 5 years on 1 July 2026, 10 on 1 July 2031.
        #expect(grant(.off, byYear, year: 2025, start: "2021-07-01") == AllowanceGrant(days: .days(23)))
        #expect(grant(.off, byYear, year: 2026, start: "2021-07-01") == AllowanceGrant(days: .days(24), formula: "23 + 1 = 24"))
        #expect(grant(.off, byYear, year: 2031, start: "2021-07-01") == AllowanceGrant(days: .days(25), formula: "23 + 2 = 25"))
        // From the anniversary: 181 days of 2026 before 1 July at 23, 184 from it at 24.
        #expect(grant(.off, byAnniversary, year: 2026, start: "2021-07-01")
            == AllowanceGrant(days: HalfDays(halves: 47), formula: "23 × 181/365 + (23 + 1) × 184/365 = 23.5"))
        #expect(grant(.off, byAnniversary, year: 2027, start: "2021-07-01") == AllowanceGrant(days: .days(24), formula: "23 + 1 = 24"))
        // Whole months, leaving on 31 March 2031, 9 years complete: the year's tier counts (+2) by the year, not by the anniversary.
        #expect(grant(.wholeMonths, byYear, year: 2031, start: "2021-07-01", end: "2031-03-31").formula == "(23 + 2) × 3/12 = 6.25 → 6.5")
        #expect(grant(.wholeMonths, byAnniversary, year: 2031, start: "2021-07-01", end: "2031-03-31").formula == "(23 + 1) × 3/12 = 6")
        // Whole months from the anniversary: January to June at 23, July to December at 24.
        #expect(grant(.wholeMonths, byAnniversary, year: 2026, start: "2021-07-01").formula == "23 × 6/12 + (23 + 1) × 6/12 = 23.5")
        // No start date: no seniority.
        #expect(ProRata.grant(of: 23, year: 2026, employment: Employment(), schedule: WorkingSchedule(company: Self.company),
                              policy: .off, seniority: byYear) == AllowanceGrant(days: .days(23)))
    }

    @Test func seniorityTiersAreReadAndChecked() {
        #expect(SeniorityPolicy.tiers(code: "5:1, 10:2") == [SeniorityPolicy.Tier(years: 5, days: 1), SeniorityPolicy.Tier(years: 10, days: 2)])
        #expect(SeniorityPolicy.tiers(code: " ") == [])
        for bad in ["5", "5:", ":1", "5:1;10:2", "5:-1", "5:1,", "٥:١", "5:1.5"] {
            #expect(SeniorityPolicy.tiers(code: bad) == nil, "\(bad)")
        }
        #expect(SeniorityPolicy(tiers: [.init(years: 5, days: 1), .init(years: 5, days: 2)]) == nil)
        #expect(SeniorityPolicy(tiers: [.init(years: 0, days: 1)]) == nil && SeniorityPolicy(tiers: [.init(years: 5, days: 0)]) == nil)
        #expect(SeniorityPolicy(tiers: [.init(years: 10, days: 2), .init(years: 5, days: 1)])?.code == "5:1,10:2")
        #expect(SeniorityPolicy.none.extraDays(years: 30) == 0)
    }

    /// Random contracts: the grant is never above the whole allowance, never below zero, and within half a day of
    /// the exact share; down ≤ nearest ≤ up.
    @Test func theGrantIsTheShareRounded() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let year = Int.random(in: 2024...2030, using: &random)
            let start = CalendarDate(dayNumber: CalendarDate(year: year - 1, month: 6, day: 1)!.dayNumber + Int.random(in: 0...900, using: &random))!
            let end = start.adding(days: Int.random(in: 0...800, using: &random))!
            let week = Set((1...5).filter { _ in Bool.random(using: &random) })
            let weeks = week.isEmpty ? [] : [(CalendarDate(year: year, month: Int.random(in: 1...12, using: &random), day: 1)!.description, week)]
            for method in [ProRataPolicy.Method.calendarDays, .wholeMonths] {
                let grants = [ProRataPolicy.Rounding.down, .nearest, .up].map {
                    Self.grant(method, $0, year: year, start: start.description, end: end.description, weeks: weeks).days
                }
                #expect(grants[0] <= grants[1] && grants[1] <= grants[2] && grants[0] >= .zero && grants[2] <= .days(23))
                #expect(grants[2].halves - grants[0].halves <= 1)
            }
        }
    }
}
