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
        try await store.read { tx in try Self.company(tx) }
    }

    static func company(_ tx: any HolidayReading) throws -> Company {
        Company(settings: try tx.company(), contact: try tx.companyContact(), feeds: try tx.companyFeedURLs())
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
        let now = clock.now()
        return try await store.write { tx in
            let current = try Self.company(tx)
            let updated = try CompanyRules.apply(patch, to: current)
            try tx.saveCompany(updated)
            let old = current.settings, new = updated.settings
            if new.defaultAllowance < old.defaultAllowance || new.carryOver != old.carryOver || new.proRata != old.proRata
                || new.seniority != old.seniority || (new.proRata.method != .off && new.workingWeek != old.workingWeek) {
                try Self.checkBalances(tx, new, on: HolidayService.today(now, new))
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
    static func checkBalances(_ tx: any HolidayTransaction, _ settings: CompanySettings, on today: CalendarDate) throws {
        let over = try tx.employeesHoldingDays().compactMap { employeeID in
            try HolidayService.firstOverdrawn(tx, employeeID: employeeID, company: settings, on: today, from: nil).map { (employeeID, $0) }
        }
        if !over.isEmpty {
            let list = over.prefix(5).map { "employee \($0.0) would have \($0.1.remaining) in \($0.1.year)" }
                .joined(separator: "; ")
            throw SGError.conflict(
                "\(over.count) employee\(over.count == 1 ? "" : "s") would be left with fewer days than they hold (\(list)). "
                    + "Set their allowance explicitly or cancel requests first.")
        }
    }

    // MARK: Public holidays and their calendars

    /// A calendar's public holidays of `year`, or of every year when nil, by date. The calendar is `calendarID`,
    /// else the one `employeeID` belongs to, else the first.
    public func publicHolidays(year: Int?, calendarID: Int64? = nil, ofEmployee employeeID: Int64? = nil) async throws -> [PublicHoliday] {
        if let year { try HolidayService.checkYear(year) }
        let start = year.flatMap(CalendarDate.firstOfYear) ?? CalendarDate.firstOfYear(HolidayService.supportedYears.lowerBound)!
        let end = year.flatMap(CalendarDate.lastOfYear) ?? CalendarDate.lastOfYear(HolidayService.supportedYears.upperBound)!
        return try await store.read { tx in
            let calendar = try calendarID.map { try Self.existingCalendar(tx, id: $0).id }
                ?? employeeID.flatMap { try tx.holidayCalendarID(employeeID: $0) } ?? HolidayCalendar.defaultID
            return try tx.publicHolidayList(calendarID: calendar, from: start, to: end)
        }
    }

    /// Adds a public holiday to a calendar (default: the first). Requests already made keep the working days they
    /// were counted with.
    @discardableResult
    public func addPublicHoliday(
        _ holiday: PublicHoliday, calendarID: Int64 = HolidayCalendar.defaultID, by actor: Actor
    ) async throws -> PublicHoliday {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change public holidays.") }
        let name = try TextRules.line(holiday.name, field: "name", maximum: PublicHoliday.maximumNameLength)
        return try await store.write { tx in
            let calendar = try Self.existingCalendar(tx, id: calendarID)
            if let existing = try tx.publicHolidayList(calendarID: calendar.id, from: holiday.date, to: holiday.date).first {
                throw SGError.conflict("\(holiday.date) is already a public holiday in '\(calendar.name)' (\(existing.name)).")
            }
            let added = PublicHoliday(date: holiday.date, name: name)
            try tx.insertPublicHoliday(added, calendarID: calendar.id)
            return added
        }
    }

    /// Removes a public holiday from a calendar (default: the first) and returns it. Requests already made keep the
    /// working days they were counted with, as when one is added.
    @discardableResult
    public func removePublicHoliday(
        date: CalendarDate, calendarID: Int64 = HolidayCalendar.defaultID, by actor: Actor
    ) async throws -> PublicHoliday {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change public holidays.") }
        return try await store.write { tx in
            let calendar = try Self.existingCalendar(tx, id: calendarID)
            guard let existing = try tx.publicHolidayList(calendarID: calendar.id, from: date, to: date).first else {
                throw SGError.notFound("\(date) is not a public holiday in '\(calendar.name)'.")
            }
            try tx.deletePublicHoliday(date: date, calendarID: calendar.id)
            return existing
        }
    }

    /// Every holiday calendar, by id, with how many employees belong to each.
    public func holidayCalendars() async throws -> [HolidayCalendar] {
        try await store.read { tx in try tx.holidayCalendars() }
    }

    /// The calendar named by `reference`: its id, or its name (without case).
    public func holidayCalendar(_ reference: String) async throws -> HolidayCalendar {
        try await store.read { tx in
            if let id = Int64(reference), let calendar = try tx.holidayCalendar(id: id) { return calendar }
            guard let calendar = try tx.holidayCalendar(named: reference) else {
                throw SGError.notFound("There is no holiday calendar '\(reference)'.")
            }
            return calendar
        }
    }

    public func createHolidayCalendar(name: String, by actor: Actor) async throws -> HolidayCalendar {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change holiday calendars.") }
        let name = try Self.checkCalendarName(name)
        return try await store.write { tx in
            try Self.requireFreeCalendarName(tx, name, except: nil)
            return try tx.insertHolidayCalendar(name: name)
        }
    }

    public func renameHolidayCalendar(id: Int64, to name: String, by actor: Actor) async throws -> HolidayCalendar {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change holiday calendars.") }
        let name = try Self.checkCalendarName(name)
        return try await store.write { tx in
            var calendar = try Self.existingCalendar(tx, id: id)
            try Self.requireFreeCalendarName(tx, name, except: id)
            try tx.renameHolidayCalendar(id: id, to: name)
            calendar.name = name
            return calendar
        }
    }

    /// Deletes a calendar with its public holidays, once no employee belongs to it. The first calendar, where new
    /// employees start, stays.
    public func deleteHolidayCalendar(id: Int64, by actor: Actor) async throws {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can change holiday calendars.") }
        try await store.write { tx in
            let calendar = try Self.existingCalendar(tx, id: id)
            if id == HolidayCalendar.defaultID {
                throw SGError.conflict("'\(calendar.name)' is the calendar new employees start in; it cannot be deleted.")
            }
            if calendar.employeeCount > 0 {
                throw SGError.conflict(
                    "\(calendar.employeeCount) employee\(calendar.employeeCount == 1 ? " belongs" : "s belong") to '\(calendar.name)'. "
                        + "Move them to another calendar first.")
            }
            try tx.deleteHolidayCalendar(id: id)
        }
    }

    /// The calendar an employee belongs to: their own, or anyone's for an admin.
    public func holidayCalendar(ofEmployee employeeID: Int64, by actor: Actor) async throws -> HolidayCalendar {
        guard actor.isAdmin || actor.employeeID == employeeID else {
            throw SGError.forbidden("Only an admin can read another employee's holiday calendar.")
        }
        return try await store.read { tx in
            guard let id = try tx.holidayCalendarID(employeeID: employeeID) else {
                throw SGError.notFound("Employee \(employeeID) does not exist.")
            }
            return try Self.existingCalendar(tx, id: id)
        }
    }

    /// Moves an employee to another calendar. Their requests already made keep the working days they were counted
    /// with; new ones skip the new calendar's public holidays.
    public func setHolidayCalendar(ofEmployee employeeID: Int64, to calendarID: Int64, by actor: Actor) async throws -> HolidayCalendar {
        guard actor.isAdmin else { throw SGError.forbidden("Only an admin can move an employee to another holiday calendar.") }
        return try await store.write { tx in
            guard try tx.holidayCalendarID(employeeID: employeeID) != nil else {
                throw SGError.notFound("Employee \(employeeID) does not exist.")
            }
            guard try tx.holidayCalendar(id: calendarID) != nil else {
                throw SGError.invalid(field: "calendarId", message: "there is no holiday calendar \(calendarID)")
            }
            try tx.setHolidayCalendar(employeeID: employeeID, calendarID: calendarID)
            return try Self.existingCalendar(tx, id: calendarID)
        }
    }

    static func existingCalendar(_ tx: any HolidayReading, id: Int64) throws -> HolidayCalendar {
        guard let calendar = try tx.holidayCalendar(id: id) else { throw SGError.notFound("Holiday calendar \(id) does not exist.") }
        return calendar
    }

    static func checkCalendarName(_ name: String) throws -> String {
        let name = try TextRules.line(name, field: "name", maximum: HolidayCalendar.maximumNameLength)
        // A name of digits would read as an id where sgadmin takes either.
        guard !name.allSatisfy(\.isNumber) else {
            throw SGError.invalid(field: "name", message: "a calendar name needs a letter, not only digits")
        }
        return name
    }

    static func requireFreeCalendarName(_ tx: any HolidayReading, _ name: String, except id: Int64?) throws {
        if let other = try tx.holidayCalendar(named: name), other.id != id {
            throw SGError.conflict("There is already a holiday calendar named '\(other.name)'.")
        }
    }
}
