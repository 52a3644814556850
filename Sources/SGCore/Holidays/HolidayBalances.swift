import Foundation

/// The balances and allowances of `HolidayService`: reading them, setting and adjusting allowances and working
/// weeks, and the ledger over the years that carries unused days on.
extension HolidayService {

    public func balance(employeeID: Int64, year: Int, by viewer: Actor? = nil) async throws -> Balance {
        try Self.checkYear(year)
        let now = clock.now()
        return try await store.read { tx in
            if let viewer { try Self.checkMayRead(tx, employeeID: employeeID, by: viewer, now: now, what: "balance") }
            _ = try Self.existingEmployee(tx, employeeID)
            let company = try tx.company()
            return try Self.balance(tx, employeeID: employeeID, year: year, company: company, on: Self.today(now, company))
        }
    }

    /// Sets one employee-year's allowance, recorded in its history. With the year's adjustments it may not drop
    /// below the days already approved or pending.
    @discardableResult
    public func setAllowance(employeeID: Int64, year: Int, days: Int, by actor: Actor) async throws -> Balance {
        try Self.checkYear(year)
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change allowances.") }
        guard (0...Self.maximumAllowance).contains(days) else {
            throw SGError.invalid(field: "days", message: "must be between 0 and \(Self.maximumAllowance)")
        }
        let now = clock.now()
        return try await store.write { tx in
            _ = try Self.existingEmployee(tx, employeeID)
            try tx.setAllowance(employeeID: employeeID, year: year, days: days)
            _ = try tx.appendAllowanceChange(AllowanceChange(
                id: 0, employeeID: employeeID, year: year, kind: .set, days: .days(days), reason: "", actor: actor.name,
                actorEmployeeID: actor.employeeID, at: now))
            return try Self.balanceAfterChange(tx, employeeID: employeeID, year: year, now: now) { overdrawn in
                "\(overdrawn.approved) approved and \(overdrawn.pending) pending days are already held in \(year); "
                    + "an allowance of \(days) would leave \(overdrawn.remaining). Cancel or reject requests first."
            }
        }
    }

    /// Adds days to an employee-year's allowance, or removes them (negative `days`), with a reason the employee
    /// can read. Removing may not take the balance below what is already approved or pending.
    public func adjustAllowance(
        employeeID: Int64, year: Int, days: HalfDays, reason: String, by actor: Actor
    ) async throws -> (change: AllowanceChange, balance: Balance) {
        try Self.checkYear(year)
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change allowances.") }
        guard days != .zero, abs(days.halves) <= 2 * Self.maximumAllowance else {
            throw SGError.invalid(field: "days", message: "must be a non-zero number of days between -366 and 366, in steps of 0.5")
        }
        try Self.checkText(reason, field: "reason")
        let reason = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !reason.isEmpty else {
            throw SGError.invalid(field: "reason", message: "an adjustment needs a reason the employee can read")
        }
        let now = clock.now()
        return try await store.write { tx in
            _ = try Self.existingEmployee(tx, employeeID)
            let change = try tx.appendAllowanceChange(AllowanceChange(
                id: 0, employeeID: employeeID, year: year, kind: .adjust, days: days, reason: reason, actor: actor.name,
                actorEmployeeID: actor.employeeID, at: now))
            let balance = try Self.balanceAfterChange(tx, employeeID: employeeID, year: year, now: now) { overdrawn in
                "Removing \((-days).inWords) from \(year) would leave \(overdrawn.remaining) days: \(overdrawn.approved) "
                    + "approved and \(overdrawn.pending) pending days are held. Cancel or reject requests first."
            }
            return (change, balance)
        }
    }

    /// Sets an employee's own working week from `startsOn` (today or later) on; nil goes back to the company's.
    /// Requests already made keep the days they were counted with. Returns the employee's working weeks.
    public func setWorkingWeek(
        employeeID: Int64, from startsOn: CalendarDate, week: WorkingWeek?, by actor: Actor
    ) async throws -> [WorkingWeekChange] {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change an employee's working week.") }
        let now = clock.now()
        return try await store.write { tx in
            _ = try Self.existingEmployee(tx, employeeID)
            let today = Self.today(now, try tx.company())
            guard startsOn >= today else {
                throw SGError.invalid(
                    field: "startsOn", message: "\(startsOn) is in the past (today is \(today)): a working week changes from today on")
            }
            try tx.saveWorkingWeek(WorkingWeekChange(employeeID: employeeID, startsOn: startsOn, week: week, setBy: actor.name, setAt: now))
            // Pro rata follows the week: fewer working days grant fewer days from that year on.
            try Self.checkContractChange(tx, employeeID: employeeID, from: startsOn.year, now: now)
            return try tx.workingWeekChanges(employeeID: employeeID)
        }
    }

    /// An employee's own working weeks, by the day each starts: theirs, the admins' and their team approvers' to read.
    public func workingWeeks(employeeID: Int64, by viewer: Actor) async throws -> (company: WorkingWeek, changes: [WorkingWeekChange]) {
        let now = clock.now()
        return try await store.read { tx in
            try Self.checkMayRead(tx, employeeID: employeeID, by: viewer, now: now, what: "working week")
            _ = try Self.existingEmployee(tx, employeeID)
            return (try tx.company().workingWeek, try tx.workingWeekChanges(employeeID: employeeID))
        }
    }

    /// An employee's allowance history (one year, or every year), oldest first: theirs, the admins' and their team approvers' to read.
    public func allowanceChanges(employeeID: Int64, year: Int?, by viewer: Actor) async throws -> [AllowanceChange] {
        if let year { try Self.checkYear(year) }
        let now = clock.now()
        return try await store.read { tx in
            try Self.checkMayRead(tx, employeeID: employeeID, by: viewer, now: now, what: "allowance history")
            _ = try Self.existingEmployee(tx, employeeID)
            return try tx.allowanceChanges(employeeID: employeeID, year: year)
        }
    }

    public static func balance(
        _ tx: any HolidayReading, employeeID: Int64, year: Int, company: CompanySettings, on today: CalendarDate
    ) throws -> Balance {
        try balances(tx, employeeID: employeeID, company: company, on: today, through: year).last!
    }

    /// The employee's balances from the year their record starts (or `year`, if earlier) through `year` (nil: the
    /// first year) and, if asked, every later year with data, oldest first, as of `today`: each year's unused days
    /// carry into the next (`BalanceLedger`).
    static func balances(
        _ tx: any HolidayReading, employeeID: Int64, company: CompanySettings, on today: CalendarDate, through year: Int?,
        includingLaterYears: Bool = false
    ) throws -> [Balance] {
        let policy = company.carryOver
        let data = try tx.ledgerRecords(employeeID: employeeID, carryOver: policy)
        var records = data.records
        let proRated = company.allowanceFollowsContracts
        let schedule = data.acrossExpiry.isEmpty && !proRated
            ? WorkingSchedule(company: company.workingWeek)
            : WorkingSchedule(company: company.workingWeek, changes: try tx.workingWeekChanges(employeeID: employeeID))
        // Carried days are used first on days up to the expiry: a request across the expiry counts its part up to
        // it, recounted on the calendar (never more than it holds in that year).
        for (recordYear, request, halvesInYear) in data.acrossExpiry {
            let expiry = policy.expiry(in: recordYear)
            let from = max(request.startDate, CalendarDate.firstOfYear(recordYear)!)
            let part = LeavePeriod(
                unchecked: from, end: expiry, startHalf: from == request.startDate ? request.startHalf : .morning, endHalf: .afternoon)
            let counter = WorkingDayCounter(schedule: schedule, publicHolidays: try tx.publicHolidays(employeeID: employeeID, from: from, to: expiry))
            records[recordYear, default: YearRecord()].heldByExpiry += min(counter.halvesByYear(in: part)[recordYear] ?? .zero, halvesInYear)
        }
        let upTo = year ?? data.firstYear
        let first = min(data.firstYear, upTo)
        let last = includingLaterYears ? max(upTo, records.keys.max() ?? upTo) : upTo
        var granted: [Int: AllowanceGrant] = [:]
        if proRated {
            for year in first...last {
                granted[year] = ProRata.grant(
                    of: company.defaultAllowance, year: year, employment: data.employment, schedule: schedule, policy: company.proRata,
                    seniority: company.seniority)
            }
        }
        let balances = BalanceLedger.balances(
            years: first...last, records: records, defaultAllowance: company.defaultAllowance, granted: granted, policy: policy,
            today: today)
        let plan = data.accrual ?? company.accrual
        return plan.isYearly ? balances : balances.map { plan.apply(to: $0, employment: data.employment, on: today) }
    }

    /// The first balance from `year` on (nil: from the employee's first year, through the last year with data)
    /// that is below zero, if any.
    static func firstOverdrawn(
        _ tx: any HolidayReading, employeeID: Int64, company: CompanySettings, on today: CalendarDate, from year: Int?
    ) throws -> Balance? {
        try balances(tx, employeeID: employeeID, company: company, on: today, through: year, includingLaterYears: true)
            .first { $0.year >= (year ?? Int.min) && $0.remaining < .zero }
    }

    /// Refuses a change of contract already written in `tx` (employment dates, a working week) that pro rata or
    /// seniority turn into a balance below zero in a year from `year` on (nil: any year).
    public static func checkContractChange(_ tx: any HolidayReading, employeeID: Int64, from year: Int?, now: Date) throws {
        let company = try tx.company()
        guard company.allowanceFollowsContracts,
              let overdrawn = try firstOverdrawn(tx, employeeID: employeeID, company: company, on: today(now, company), from: year)
        else { return }
        throw SGError.conflict(
            "This would leave \(overdrawn.year) with \(overdrawn.remaining) days: its allowance would be \(overdrawn.allowance)"
                + (overdrawn.allowanceFormula.map { " (\($0))" } ?? "") + ", and \(overdrawn.approved) approved and "
                + "\(overdrawn.pending) pending days are held. Cancel or reject requests of \(overdrawn.year) first.")
    }

    /// The employee's balance of `year` after a change to its allowance (already written in `tx`), read from the same
    /// ledger as the check that no year from `year` on is left below zero; a refusal in `year` itself is worded by
    /// `sameYear`, in a later year by `overdrawnMessage`.
    static func balanceAfterChange(
        _ tx: any HolidayReading, employeeID: Int64, year: Int, now: Date, sameYear: (Balance) -> String
    ) throws -> Balance {
        let company = try tx.company()
        let ledger = try balances(
            tx, employeeID: employeeID, company: company, on: Self.today(now, company), through: year, includingLaterYears: true)
        if let overdrawn = ledger.first(where: { $0.year >= year && $0.remaining < .zero }) {
            throw SGError.conflict(overdrawn.year == year ? sameYear(overdrawn) : overdrawnMessage(overdrawn))
        }
        return ledger.first { $0.year == year }!
    }

}
