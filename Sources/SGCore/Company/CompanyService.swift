import Foundation

/// The company's details and settings, its default allowance and its public holidays. The settings are the
/// holiday rules' data (a lower default allowance must still cover what employees hold), so this service works
/// on the holiday store.
public struct CompanyService: Sendable {
    public let store: any HolidayStore
    public let clock: any NowProvider

    public init(store: any HolidayStore, clock: any NowProvider = SystemClock()) {
        self.store = store
        self.clock = clock
    }

    public func company() async throws -> Company {
        try await store.read { tx in Company(settings: try tx.company(), contact: try tx.companyContact()) }
    }

    /// The company's date now, in its time zone.
    public func today() async throws -> CalendarDate {
        let now = clock.now()
        return try await store.read { tx in try tx.today(at: now) }
    }

    /// The year asked for, or the company's current year.
    public func year(_ year: Int?) async throws -> Int {
        if let year {
            try HolidayService.checkYear(year)
            return year
        }
        return try await today().year
    }

    /// Changes company details and settings in one transaction: either every field changes or none does. A new
    /// default allowance may not drop below what any employee already holds in a year without an override.
    @discardableResult
    public func updateCompany(_ patch: CompanyPatch, by actor: Actor) async throws -> Company {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change the company's details.") }
        return try await store.write { tx in
            let current = Company(settings: try tx.company(), contact: try tx.companyContact())
            let updated = try CompanyRules.apply(patch, to: current)
            try tx.saveCompany(updated)
            let old = current.settings, new = updated.settings
            if new.defaultAllowance < old.defaultAllowance || new.carryOver != old.carryOver {
                try Self.checkBalances(tx, new)
            }
            return updated
        }
    }

    /// Changes the company default allowance under the same rule as `updateCompany`.
    public func setDefaultAllowance(_ days: Int, by actor: Actor) async throws {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change allowances.") }
        guard (0...HolidayService.maximumAllowance).contains(days) else {
            throw SGError.invalid(field: "days", message: "must be between 0 and \(HolidayService.maximumAllowance)")
        }
        var patch = CompanyPatch()
        patch.defaultAllowance = days
        try await updateCompany(patch, by: actor)
    }

    /// A lower default allowance or another carry-over rule (already saved in `tx`) may not leave any employee's
    /// balance below zero in any year.
    static func checkBalances(_ tx: any HolidayTransaction, _ settings: CompanySettings) throws {
        let over = try tx.employeesHoldingDays().compactMap { employeeID in
            try HolidayService.firstOverdrawn(tx, employeeID: employeeID, company: settings, from: nil).map { (employeeID, $0) }
        }
        if !over.isEmpty {
            let list = over.prefix(5).map { "employee \($0.0) would have \($0.1.remaining) in \($0.1.year)" }
                .joined(separator: "; ")
            throw SGError.conflict(
                "\(over.count) employee\(over.count == 1 ? "" : "s") would be left with fewer days than they hold (\(list)). "
                    + "Set their allowance explicitly or cancel requests first.")
        }
    }

    // MARK: Public holidays

    /// The public holidays of `year`, or of every year when nil, by date.
    public func publicHolidays(year: Int?) async throws -> [PublicHoliday] {
        if let year { try HolidayService.checkYear(year) }
        let start = year.flatMap(CalendarDate.firstOfYear) ?? CalendarDate.firstOfYear(HolidayService.supportedYears.lowerBound)!
        let end = year.flatMap(CalendarDate.lastOfYear) ?? CalendarDate.lastOfYear(HolidayService.supportedYears.upperBound)!
        return try await store.read { tx in try tx.publicHolidayList(from: start, to: end) }
    }

    /// Adds a public holiday. Requests already made keep the working days they were counted with.
    public func addPublicHoliday(_ holiday: PublicHoliday, by actor: Actor) async throws {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change public holidays.") }
        let name = try TextRules.line(holiday.name, field: "name", maximum: PublicHoliday.maximumNameLength)
        try await store.write { tx in
            if let existing = try tx.publicHolidayList(from: holiday.date, to: holiday.date).first {
                throw SGError.conflict("\(holiday.date) is already a public holiday (\(existing.name)).")
            }
            try tx.insertPublicHoliday(PublicHoliday(date: holiday.date, name: name))
        }
    }
}
