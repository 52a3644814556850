import Foundation
import Testing
import SGCore

/// Half days: exact arithmetic, the shape of a period, overlap by half day and counting.
@Suite struct HalfDayTests {
    let counter = WorkingDayCounter(week: .mondayToFriday, publicHolidays: [CalendarDate(iso: "2027-01-01")!])

    static func date(_ text: String) -> CalendarDate { CalendarDate(iso: text)! }

    @Test func daysAreWrittenAndReadInHalfSteps() {
        #expect(HalfDays(halves: 5).description == "2.5")
        #expect(HalfDays(halves: 4).description == "2")
        #expect(HalfDays(halves: -1).description == "-0.5")
        #expect(HalfDays(halves: -3).description == "-1.5")
        #expect(HalfDays(halves: 0).description == "0")
        #expect(HalfDays(days: "2.5") == HalfDays(halves: 5))
        #expect(HalfDays(days: "+3") == HalfDays(halves: 6))
        #expect(HalfDays(days: "-0.5") == HalfDays(halves: -1))
        #expect(HalfDays(days: "4.0") == HalfDays(halves: 8))
        for bad in ["", "-", "1.25", "0.3", "1e3", "abc", " 1", "1,5", "٣", "1.5.5", "9999999"] {
            #expect(HalfDays(days: bad) == nil, "\(bad)")
        }
        #expect(HalfDays(days: 1.5) == HalfDays(halves: 3))
        #expect(HalfDays(days: 1.25) == nil)
        #expect(HalfDays(days: .nan) == nil)
        #expect(HalfDays(days: .infinity) == nil)
        #expect(HalfDays(days: 1e300) == nil)
        #expect(HalfDays(halves: 3).days == 1.5)
        #expect(HalfDays(halves: 2).inWorkingDays == "1 working day")
        #expect(HalfDays(halves: 1).inWorkingDays == "0.5 working days")
    }

    @Test func aOneDayPeriodIsAMorningAnAfternoonOrTheWholeDay() throws {
        let day = Self.date("2026-08-10")
        #expect(try LeavePeriod(start: day, end: day).isWholeDays)
        #expect(try LeavePeriod(start: day, end: day, startHalf: .morning, endHalf: .morning).halves(on: day) == 1)
        #expect(try LeavePeriod(start: day, end: day, startHalf: .afternoon, endHalf: .afternoon).halves(on: day) == 1)
        #expect(throws: SGError.self) { try LeavePeriod(start: day, end: day, startHalf: .afternoon, endHalf: .morning) }
        #expect(throws: SGError.self) { try LeavePeriod(start: day, end: Self.date("2026-08-09")) }
        // Over several days, an afternoon start and a morning end are both fine.
        let period = try LeavePeriod(start: day, end: Self.date("2026-08-12"), startHalf: .afternoon, endHalf: .morning)
        #expect(counter.halvesByYear(in: period) == [2026: HalfDays(halves: 4)])
        #expect(period.description == "2026-08-10 (afternoon) to 2026-08-12 (morning)")
    }

    @Test func aMorningAndAnAfternoonOfOneDayDoNotOverlap() throws {
        let day = Self.date("2026-08-10")
        let morning = try LeavePeriod(start: day, end: day, startHalf: .morning, endHalf: .morning)
        let afternoon = try LeavePeriod(start: day, end: day, startHalf: .afternoon, endHalf: .afternoon)
        let whole = try LeavePeriod(start: day, end: day)
        #expect(!morning.overlaps(afternoon) && !afternoon.overlaps(morning))
        #expect(morning.overlaps(whole) && afternoon.overlaps(whole) && whole.overlaps(whole))
        // A week ending at noon on Friday and one starting on Friday afternoon.
        let first = try LeavePeriod(start: Self.date("2026-08-10"), end: Self.date("2026-08-14"), endHalf: .morning)
        let second = try LeavePeriod(start: Self.date("2026-08-14"), end: Self.date("2026-08-21"), startHalf: .afternoon)
        #expect(!first.overlaps(second))
        #expect(counter.halvesByYear(in: first)[2026] == HalfDays(halves: 9))
        #expect(counter.halvesByYear(in: second)[2026] == HalfDays(halves: 11))
    }

    @Test func halfDaysOnDaysOffCountNothing() throws {
        // Saturday afternoon to Monday morning: one half day, on Monday.
        let period = try LeavePeriod(
            start: Self.date("2026-08-15"), end: Self.date("2026-08-17"), startHalf: .afternoon, endHalf: .morning)
        #expect(counter.halvesByYear(in: period) == [2026: HalfDays(halves: 1)])
        let sunday = Self.date("2026-08-16")
        #expect(counter.halvesByYear(in: try LeavePeriod(start: sunday, end: sunday, startHalf: .morning, endHalf: .morning)).isEmpty)
        // New Year: 31 Dec afternoon to 4 Jan morning (1 Jan a public holiday).
        let newYear = try LeavePeriod(
            start: Self.date("2026-12-31"), end: Self.date("2027-01-04"), startHalf: .afternoon, endHalf: .morning)
        // 1 Jan is a holiday and 2-3 Jan a weekend: only Monday morning counts in 2027.
        #expect(counter.halvesByYear(in: newYear) == [2026: HalfDays(halves: 1), 2027: HalfDays(halves: 1)])
    }

    /// Overlap and counting agree with a slot-by-slot count for every small period of a fortnight.
    @Test func overlapAndCountingAgreeWithCountingSlotByHand() throws {
        let first = Self.date("2026-08-08").dayNumber
        var periods: [LeavePeriod] = []
        for start in first..<(first + 6) {
            for end in start..<(first + 6) {
                for startHalf in DayHalf.allCases {
                    for endHalf in DayHalf.allCases {
                        if let period = try? LeavePeriod(
                            start: CalendarDate(dayNumber: start)!, end: CalendarDate(dayNumber: end)!, startHalf: startHalf,
                            endHalf: endHalf) { periods.append(period) }
                    }
                }
            }
        }
        func slots(_ period: LeavePeriod) -> Set<Int> {
            var slots = Set<Int>()
            for day in period.start.dayNumber...period.end.dayNumber {
                if !(day == period.start.dayNumber && period.startHalf == .afternoon) { slots.insert(2 * day) }
                if !(day == period.end.dayNumber && period.endHalf == .morning) { slots.insert(2 * day + 1) }
            }
            return slots
        }
        for a in periods {
            let working = slots(a).filter { counter.isWorkingDay(CalendarDate(dayNumber: $0 / 2)!) }.count
            #expect(counter.halvesByYear(in: a).values.reduce(HalfDays.zero, +).halves == working)
            for b in periods {
                #expect(a.overlaps(b) == !slots(a).isDisjoint(with: slots(b)))
            }
        }
        #expect(periods.count > 50)
    }
}

/// The balance over the years, as a pure function of what is held.
@Suite struct BalanceLedgerTests {
    static let policy = CarryOverPolicy.standard

    @Test func unusedDaysCarryUpToTheCapAndExpireUnusedByTheDay() {
        let records: [Int: YearRecord] = [
            // 2025: 20 of 23 days held: 3 carry.
            2025: YearRecord(held: HeldDays(approved: .days(20))),
            // 2026: 1 day held by 31 March (uses a carried day), 4 later: 2 carried days expire.
            2026: YearRecord(held: HeldDays(approved: .days(3), pending: .days(2)), heldByExpiry: .days(1)),
            // 2027: nothing held; 2026 left 23 + 3 - 2 - 5 = 19, of which 5 (the cap) carry.
        ]
        // Seen on 2027-02-10: 2025's and 2026's carried days have expired, 2027's are due to expire, 2028's later.
        let balances = BalanceLedger.balances(
            years: 2025...2028, records: records, defaultAllowance: 23, policy: Self.policy, today: CalendarDate(iso: "2027-02-10")!)
        #expect(balances.map(\.carriedOver) == [.zero, .days(3), .days(5), .days(5)])
        #expect(balances.map(\.expired) == [.zero, .days(2), .zero, .zero])
        #expect(balances.map(\.expiring) == [.zero, .zero, .days(5), .days(5)])
        #expect(balances.map(\.remaining) == [.days(3), .days(19), .days(23), .days(23)])
        #expect(balances[1].carryOverExpiresOn == CalendarDate(iso: "2026-03-31") && balances[0].carryOverExpiresOn == nil)
    }

    /// The carried days that no request uses are due to expire through the expiry day and expired from the next;
    /// what remains is the same on both sides of it.
    @Test func carriedDaysAreExpiringThroughTheDayAndExpiredAfterIt() {
        let records: [Int: YearRecord] = [
            2025: YearRecord(held: HeldDays(approved: .days(20))),
            2026: YearRecord(held: HeldDays(approved: .days(1)), heldByExpiry: .days(1)),
        ]
        func in2026(on day: String) -> Balance {
            BalanceLedger.balances(
                years: 2025...2026, records: records, defaultAllowance: 23, policy: Self.policy, today: CalendarDate(iso: day)!)[1]
        }
        for day in ["2025-12-31", "2026-01-01", "2026-03-31"] {
            let balance = in2026(on: day)
            #expect(balance.expiring == .days(2) && balance.expired == .zero && balance.remaining == .days(23), "\(day)")
        }
        for day in ["2026-04-01", "2026-12-31", "2031-06-01"] {
            let balance = in2026(on: day)
            #expect(balance.expired == .days(2) && balance.expiring == .zero && balance.remaining == .days(23), "\(day)")
        }
    }

    @Test func aNegativeOrEmptyYearCarriesNothingAndACapOfZeroTurnsItOff() {
        let records: [Int: YearRecord] = [
            2025: YearRecord(override: 2, held: HeldDays(approved: .days(5))),
            2026: YearRecord(adjusted: HalfDays(halves: 3)),
        ]
        let balances = BalanceLedger.balances(
            years: 2025...2027, records: records, defaultAllowance: 10, policy: Self.policy, today: CalendarDate(iso: "2026-06-01")!)
        #expect(balances[0].remaining == -.days(3) && balances[1].carriedOver == .zero)
        #expect(balances[1].remaining == HalfDays(halves: 23) && balances[2].carriedOver == .days(5))
        let none = CarryOverPolicy(cap: .zero, expiryMonth: 12, expiryDay: 31)!
        #expect(BalanceLedger.balances(years: 2025...2027, records: records, defaultAllowance: 10, policy: none, today: CalendarDate(iso: "2026-06-01")!)
            .allSatisfy { $0.carriedOver == .zero && $0.expired == .zero && $0.expiring == .zero && $0.carryOverExpiresOn == nil })
    }

    @Test func theExpiryIsADayOfEveryYear() {
        #expect(CarryOverPolicy.expiry(code: "03-31")! == (3, 31))
        for bad in ["02-29", "3-31", "03/31", "13-01", "00-10", "04-31", "", "03-31-", "٠٣-٣١"] {
            #expect(CarryOverPolicy.expiry(code: bad) == nil, "\(bad)")
        }
        #expect(CarryOverPolicy(cap: .days(367), expiryMonth: 3, expiryDay: 31) == nil)
        #expect(CarryOverPolicy(cap: -.days(1), expiryMonth: 3, expiryDay: 31) == nil)
        #expect(CarryOverPolicy(cap: .days(5), expiryMonth: 12, expiryDay: 31)!.expiryCode == "12-31")
        #expect(CarryOverPolicy.standard.expiry(in: 2028) == CalendarDate(iso: "2028-03-31"))
    }

    /// Random years: every balance is the sum of its parts, what carries never exceeds the cap or what was left,
    /// and what expires never exceeds what was carried.
    @Test func theLedgerAddsUp() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var records: [Int: YearRecord] = [:]
            for year in 2020...2026 where Bool.random(using: &random) {
                let held = HalfDays(halves: Int.random(in: 0...60, using: &random))
                records[year] = YearRecord(
                    override: Bool.random(using: &random) ? Int.random(in: 0...30, using: &random) : nil,
                    adjusted: HalfDays(halves: Int.random(in: -6...6, using: &random)), held: HeldDays(approved: held),
                    heldByExpiry: HalfDays(halves: Int.random(in: 0...held.halves, using: &random)))
            }
            let cap = HalfDays(halves: Int.random(in: 0...20, using: &random))
            let policy = CarryOverPolicy(cap: cap, expiryMonth: 3, expiryDay: 31)!
            let today = CalendarDate(year: Int.random(in: 2019...2027, using: &random), month: Int.random(in: 1...12, using: &random), day: 1)!
            let balances = BalanceLedger.balances(years: 2020...2026, records: records, defaultAllowance: 23, policy: policy, today: today)
            for (index, balance) in balances.enumerated() {
                let record = records[balance.year] ?? YearRecord()
                let lapsing = balance.expired + balance.expiring
                let total = balance.allowance + balance.carriedOver - lapsing + record.adjusted
                #expect(balance.remaining == total - record.held.total)
                #expect(balance.carriedOver <= cap && lapsing <= balance.carriedOver && balance.expired >= .zero && balance.expiring >= .zero)
                #expect(today > policy.expiry(in: balance.year) ? balance.expiring == .zero : balance.expired == .zero)
                let before = index == 0 ? HalfDays.zero : max(.zero, balances[index - 1].remaining)
                #expect(balance.carriedOver == min(cap, before))
                #expect(lapsing == max(.zero, balance.carriedOver - record.heldByExpiry))
            }
        }
    }
}
