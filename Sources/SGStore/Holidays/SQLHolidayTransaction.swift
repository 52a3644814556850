import Foundation
import SGCore
import SGSQLite

/// `HolidayTransaction` over one `SQLConnection`: all SQL that the rules depend on lives here. The same type reads
/// on pooled read-only connections (`HolidayStore.read`) and reads and writes on the write connection inside a
/// `BEGIN IMMEDIATE` transaction (`HolidayStore.write`).
struct SQLHolidayTransaction: HolidayTransaction {
    let connection: SQLConnection

    func company() throws -> CompanySettings {
        try Rows.company(connection)
    }

    func employee(id: Int64) throws -> Employee? {
        try Rows.employee(connection, id: id)
    }

    func employment(employeeID: Int64) throws -> Employment {
        try connection.with("SELECT employment_start, employment_end FROM employees WHERE id = ?") { statement in
            statement.bind(1, employeeID)
            return try statement.step() ? try Rows.employment(statement, from: 0) : Employment()
        }
    }

    func approvalContext(employeeID: Int64, on day: CalendarDate) throws -> ApprovalContext {
        try SQLTeams(connection: connection).approvalContext(employeeID: employeeID, on: day)
    }

    func approvalContexts(employeeIDs: [Int64], on day: CalendarDate) throws -> [Int64: ApprovalContext] {
        try SQLTeams(connection: connection).approvalContexts(employeeIDs: employeeIDs, on: day)
    }

    func teamStageEmployees(decidedBy employeeID: Int64, on day: CalendarDate) throws -> [Int64] {
        try SQLTeams(connection: connection).teamStageEmployees(decidedBy: employeeID, on: day)
    }

    func employee(username: String) throws -> Employee? {
        try Rows.employee(connection, username: username)
    }

    func publicHolidays(employeeID: Int64, from start: CalendarDate, to end: CalendarDate) throws -> Set<CalendarDate> {
        try connection.with(
            """
            SELECT p.date FROM employees e JOIN public_holidays p ON p.calendar_id = e.holiday_calendar_id
            WHERE e.id = ? AND p.date BETWEEN ? AND ?
            """
        ) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, start)
            statement.bind(3, end)
            var days = Set<CalendarDate>()
            while try statement.step() { days.insert(try statement.date(0)) }
            return days
        }
    }

    func allowanceChanges(employeeID: Int64, year: Int?) throws -> [AllowanceChange] {
        try connection.with(
            """
            SELECT id, employee_id, year, kind, halves, reason, actor, actor_employee_id, at FROM allowance_changes
            WHERE employee_id = ? AND (? IS NULL OR year = ?) ORDER BY id
            """
        ) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, year.map(Int64.init))
            statement.bind(3, year.map(Int64.init))
            var changes: [AllowanceChange] = []
            while try statement.step() {
                guard let kind = AllowanceChange.Kind(rawValue: statement.text(3)) else {
                    throw SGError.conflict("Allowance change \(statement.int64(0)) has an unknown kind '\(statement.text(3))'.")
                }
                changes.append(AllowanceChange(
                    id: statement.int64(0), employeeID: statement.int64(1), year: statement.int(2), kind: kind,
                    days: HalfDays(halves: statement.int(4)), reason: statement.text(5), actor: statement.text(6),
                    actorEmployeeID: statement.optionalInt64(7), at: try statement.timestamp(8)))
            }
            return changes
        }
    }

    func heldDays(employeeID: Int64, year: Int, leaveTypeID: Int64) throws -> HalfDays {
        try connection.with(
            """
            SELECT COALESCE(SUM(d.halves), 0) FROM holiday_request_days d JOIN holiday_requests r ON r.id = d.request_id
            WHERE d.employee_id = ? AND d.year = ? AND d.leave_type_id = ? AND \(Rows.holdsDays)
            """
        ) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, year)
            statement.bind(3, leaveTypeID)
            return try statement.step() ? HalfDays(halves: statement.int(0)) : .zero
        }
    }

    // Leave types, as the rules read them.

    func leaveTypes() throws -> [LeaveType] { try SQLLeaveTypes(connection: connection).leaveTypes() }
    func leaveType(id: Int64) throws -> LeaveType? { try SQLLeaveTypes(connection: connection).leaveType(id: id) }
    func leaveType(named name: String) throws -> LeaveType? { try SQLLeaveTypes(connection: connection).leaveType(named: name) }
    func requestCount(leaveTypeID: Int64) throws -> Int { try SQLLeaveTypes(connection: connection).requestCount(leaveTypeID: leaveTypeID) }

    func overlappingRequests(employeeID: Int64, from start: CalendarDate, to end: CalendarDate) throws -> [HolidayRequest] {
        try requests(employeeID: employeeID, from: start, to: end, holdingDaysOnly: true)
    }

    /// The employee's requests (any status) with at least one day in `years`, by start date.
    func requests(employeeID: Int64, touchingYears years: ClosedRange<Int>) throws -> [HolidayRequest] {
        try requests(
            employeeID: employeeID, from: CalendarDate.firstOfYear(years.lowerBound)!,
            to: CalendarDate.lastOfYear(years.upperBound)!, holdingDaysOnly: false)
    }

    /// The employee's requests with a day in `start...end` (only those holding days, if asked), by start date, then
    /// end date and id: the order of holiday_requests_employee (employee_id, start_date, end_date, and the rowid),
    /// so that SQLite reads them in order instead of sorting them in a temporary b-tree at every run.
    private func requests(
        employeeID: Int64, from start: CalendarDate, to end: CalendarDate, holdingDaysOnly: Bool
    ) throws -> [HolidayRequest] {
        try connection.with(Self.employeeRequestsSQL) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, Rows.earliestStart(touching: start))
            statement.bind(3, end)
            statement.bind(4, start)
            statement.bind(5, holdingDaysOnly ? 1 : 0)
            var requests: [HolidayRequest] = []
            while try statement.step() { requests.append(try Rows.request(statement)) }
            return requests
        }
    }

    /// `requests(employeeID:from:to:holdingDaysOnly:)`: the employee, the earliest start, the end, the start, and 1
    /// for only the requests holding days.
    static let employeeRequestsSQL = """
        SELECT \(Rows.requestColumns) FROM holiday_requests r
        WHERE r.employee_id = ? AND r.start_date BETWEEN ? AND ? AND r.end_date >= ?
          AND (? = 0 OR \(Rows.holdsDays))
        ORDER BY r.start_date, r.end_date, r.id
        """

    func request(id: Int64) throws -> HolidayRequest? {
        try Rows.request(connection, id: id)
    }

    func daysByYear(requestID: Int64) throws -> [Int: HalfDays] {
        try Rows.daysByYear(connection, requestID: requestID)
    }

    func ledgerRecords(employeeID: Int64, carryOver: CarryOverPolicy) throws -> LedgerRecords {
        var records: [Int: YearRecord] = [:]
        var created: Int?
        var employment = Employment()
        var accrual: AccrualPlan?
        // Kept by the schema's triggers with every move (0010_held_days.sql, 0012_held_days_spanning_expiry.sql).
        var spanningYears: [Int] = []
        try connection.with(Self.ledgerSQL) { statement in
            statement.bind(1, employeeID)
            while try statement.step() {
                let year = statement.int(1)
                switch statement.int(0) {
                case 0:
                    created = Int(statement.text(6))
                    employment = try Rows.employment(statement, from: 7)
                    accrual = Rows.accrual(statement, 9)
                case 1:
                    records[year, default: YearRecord()].override = statement.int(2)
                case 2:
                    records[year, default: YearRecord()].adjusted = HalfDays(halves: statement.int(2))
                default:
                    records[year, default: YearRecord()].held = HeldDays(
                        approved: HalfDays(halves: statement.int(2)), pending: HalfDays(halves: statement.int(3)))
                    records[year, default: YearRecord()].heldByExpiry = HalfDays(halves: statement.int(4))
                    if statement.int(5) > 0 { spanningYears.append(year) }
                }
            }
        }
        // Requests running across a year's expiry, only in the years that have some: a range of
        // holiday_requests_employee each, since such a request starts at most a request's longest span before it.
        var across: [(year: Int, request: HolidayRequest, halvesInYear: HalfDays)] = []
        for year in spanningYears {
            let expiry = carryOver.expiry(in: year)
            try connection.with(
                """
                SELECT \(Rows.requestColumns), d.halves
                FROM holiday_requests r JOIN holiday_request_days d ON d.request_id = r.id AND d.year = ?2
                \(Rows.drawingTypes)
                WHERE r.employee_id = ?1 AND r.start_date BETWEEN ?3 AND ?4 AND r.end_date > ?4 AND \(Rows.holdsDays)
                """
            ) { statement in
                statement.bind(1, employeeID)
                statement.bind(2, year)
                statement.bind(3, Rows.earliestStart(touching: expiry))
                statement.bind(4, expiry)
                while try statement.step() {
                    across.append((year, try Rows.request(statement), HalfDays(halves: statement.int(Rows.requestColumnCount))))
                }
            }
        }
        let firstYear = ([created].compactMap { $0 } + Array(records.keys)).min() ?? HolidayService.supportedYears.lowerBound
        return LedgerRecords(firstYear: firstYear, records: records, acrossExpiry: across, employment: employment, accrual: accrual)
    }

    /// `ledgerRecords`' rows of one employee (?1) in one statement, each branch a range of its table's key: the
    /// part (0 the employee: the year they were created, as text, their employment dates and accrual plan in the
    /// last four columns; 1 an allowance set for a year; 2 a year's adjustments; 3 a year's held days), the year, and
    /// the part's numbers.
    static let ledgerSQL = """
        SELECT 0, 0, 0, 0, 0, 0, substr(created_at, 1, 4), employment_start, employment_end, accrual FROM employees WHERE id = ?1
        UNION ALL SELECT 1, year, days, 0, 0, 0, NULL, NULL, NULL, NULL FROM allowances WHERE employee_id = ?1
        UNION ALL SELECT 2, year, SUM(halves), 0, 0, 0, NULL, NULL, NULL, NULL FROM allowance_changes WHERE employee_id = ?1 AND kind = 'adjust' GROUP BY year
        UNION ALL SELECT 3, year, approved_halves, pending_halves, by_expiry_halves, spanning_expiry, NULL, NULL, NULL, NULL FROM held_days WHERE employee_id = ?1
        """

    func workingWeekChanges(employeeID: Int64) throws -> [WorkingWeekChange] {
        try connection.with(
            "SELECT starts_on, working_days, set_by, set_at FROM working_weeks WHERE employee_id = ? ORDER BY starts_on"
        ) { statement in
            statement.bind(1, employeeID)
            var changes: [WorkingWeekChange] = []
            while try statement.step() {
                changes.append(WorkingWeekChange(
                    employeeID: employeeID, startsOn: try statement.date(0),
                    week: statement.optionalText(1).flatMap(WorkingWeek.init(code:)), setBy: statement.text(2),
                    setAt: try statement.timestamp(3)))
            }
            return changes
        }
    }

    func saveWorkingWeek(_ change: WorkingWeekChange) throws {
        try connection.execute(
            """
            INSERT INTO working_weeks (employee_id, starts_on, working_days, set_by, set_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (employee_id, starts_on) DO UPDATE
            SET working_days = excluded.working_days, set_by = excluded.set_by, set_at = excluded.set_at
            """
        ) { statement in
            statement.bind(1, change.employeeID)
            statement.bind(2, change.startsOn)
            statement.bind(3, change.week?.code)
            statement.bind(4, change.setBy)
            statement.bind(5, Timestamp.format(change.setAt))
        }
    }

    func employeesHoldingDays() throws -> [Int64] {
        try connection.with(
            "SELECT DISTINCT employee_id FROM held_days WHERE approved_halves > 0 OR pending_halves > 0 ORDER BY employee_id"
        ) { statement in
            var ids: [Int64] = []
            while try statement.step() { ids.append(statement.int64(0)) }
            return ids
        }
    }

    // MARK: Writes

    func insertRequest(
        employeeID: Int64, type: LeaveType, period: LeavePeriod, daysByYear: [Int: HalfDays], status: HolidayStatus,
        comment: String, at: Date
    ) throws -> HolidayRequest {
        let now = Timestamp.format(at)
        let total = daysByYear.values.reduce(HalfDays.zero, +)
        try connection.execute(
            """
            INSERT INTO holiday_requests (employee_id, leave_type_id, start_date, end_date, starts_afternoon, ends_morning,
                                          halves, status, comment, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, type.id)
            statement.bind(3, period.start)
            statement.bind(4, period.end)
            statement.bind(5, period.startHalf == .afternoon ? 1 : 0)
            statement.bind(6, period.endHalf == .morning ? 1 : 0)
            statement.bind(7, total.halves)
            statement.bind(8, status.rawValue)
            statement.bind(9, comment)
            statement.bind(10, now)
            statement.bind(11, now)
        }
        let id = try connection.lastInsertedRowID
        for (year, days) in daysByYear.sorted(by: { $0.key < $1.key }) {
            try connection.execute(
                "INSERT INTO holiday_request_days (request_id, employee_id, year, leave_type_id, halves) VALUES (?, ?, ?, ?, ?)"
            ) { statement in
                statement.bind(1, id)
                statement.bind(2, employeeID)
                statement.bind(3, year)
                statement.bind(4, type.id)
                statement.bind(5, days.halves)
            }
        }
        // As a read would give it back: the instant as stored, to the millisecond.
        let stored = Timestamp.parse(now) ?? at
        return HolidayRequest(
            id: id, employeeID: employeeID, leaveTypeID: type.id, leaveTypeName: type.name, startDate: period.start,
            endDate: period.end, startHalf: period.startHalf, endHalf: period.endHalf, duration: total, status: status,
            comment: comment, createdAt: stored, updatedAt: stored, decidedBy: nil, decidedAt: nil,
            typeNeedsApproval: type.needsApproval)
    }

    func updateStatus(requestID: Int64, to status: HolidayStatus, at: Date, decision: DecisionChange) throws {
        let now = Timestamp.format(at)
        switch decision {
        case .decided(let by):
            try connection.execute("UPDATE holiday_requests SET status = ?, updated_at = ?, decided_by = ?, decided_at = ? WHERE id = ?") { statement in
                statement.bind(1, status.rawValue)
                statement.bind(2, now)
                statement.bind(3, by)
                statement.bind(4, now)
                statement.bind(5, requestID)
            }
        case .undecided, .kept:
            let decided = decision == .undecided ? ", decided_by = NULL, decided_at = NULL" : ""
            try connection.execute("UPDATE holiday_requests SET status = ?, updated_at = ?\(decided) WHERE id = ?") { statement in
                statement.bind(1, status.rawValue)
                statement.bind(2, now)
                statement.bind(3, requestID)
            }
        }
    }

    func appendEvent(requestID: Int64, from: HolidayStatus?, to: HolidayStatus, actor: Actor, at: Date, note: String) throws {
        try connection.execute(
            """
            INSERT INTO holiday_events (request_id, from_status, to_status, actor, actor_employee_id, at, note)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """
        ) { statement in
            statement.bind(1, requestID)
            statement.bind(2, from?.rawValue)
            statement.bind(3, to.rawValue)
            statement.bind(4, actor.name)
            statement.bind(5, actor.employeeID)
            statement.bind(6, Timestamp.format(at))
            statement.bind(7, note)
        }
    }

    func setAllowance(employeeID: Int64, year: Int, days: Int) throws {
        try connection.execute(
            """
            INSERT INTO allowances (employee_id, year, days) VALUES (?, ?, ?)
            ON CONFLICT (employee_id, year) DO UPDATE SET days = excluded.days
            """
        ) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, year)
            statement.bind(3, days)
        }
    }

    func appendAllowanceChange(_ change: AllowanceChange) throws -> AllowanceChange {
        try connection.execute(
            """
            INSERT INTO allowance_changes (employee_id, year, kind, halves, reason, actor, actor_employee_id, at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """
        ) { statement in
            statement.bind(1, change.employeeID)
            statement.bind(2, change.year)
            statement.bind(3, change.kind.rawValue)
            statement.bind(4, change.days.halves)
            statement.bind(5, change.reason)
            statement.bind(6, change.actor)
            statement.bind(7, change.actorEmployeeID)
            statement.bind(8, Timestamp.format(change.at))
        }
        var appended = change
        appended.id = try connection.lastInsertedRowID
        return appended
    }

    func setDefaultAllowance(_ days: Int) throws {
        try connection.execute("UPDATE company SET default_allowance = ? WHERE id = 1") { statement in
            statement.bind(1, days)
        }
    }

    func appendNotice(_ notice: PersonalNotice) throws {
        let at = Timestamp.format(notice.at)
        try connection.execute(
            """
            INSERT INTO notices (kind, employee_id, title, body, author, author_employee_id, request_id,
                                 from_status, to_status, note, read_at, created_at, updated_at)
            VALUES ('personal', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        ) { statement in
            statement.bind(1, notice.employeeID)
            statement.bind(2, notice.title)
            statement.bind(3, notice.body)
            statement.bind(4, notice.author)
            statement.bind(5, notice.authorEmployeeID)
            statement.bind(6, notice.requestID)
            statement.bind(7, notice.from?.rawValue)
            statement.bind(8, notice.to.rawValue)
            statement.bind(9, notice.note)
            statement.bind(10, notice.read ? at : nil)
            statement.bind(11, at)
            statement.bind(12, at)
        }
    }

    func companyContact() throws -> CompanyContact {
        try Rows.companyContact(connection)
    }

    func companyFeedURLs() throws -> [String] {
        try SQLCompanyFeeds.urls(connection)
    }

    func saveCompany(_ company: Company) throws {
        let settings = company.settings, contact = company.contact
        try connection.execute(
            """
            UPDATE company SET name = ?, working_days = ?, default_allowance = ?, timezone = ?,
                               address = ?, phone = ?, email = ?, website = ?, carry_over_cap_halves = ?, carry_over_expiry = ?,
                               pro_rata = ?, pro_rata_rounding = ?, seniority = ?, seniority_from = ?, accrual = ?
            WHERE id = 1
            """
        ) { statement in
            statement.bind(1, settings.name)
            statement.bind(2, settings.workingWeek.code)
            statement.bind(3, settings.defaultAllowance)
            statement.bind(4, settings.timeZoneIdentifier)
            statement.bind(5, contact.address)
            statement.bind(6, contact.phone)
            statement.bind(7, contact.email)
            statement.bind(8, contact.website)
            statement.bind(9, settings.carryOver.cap.halves)
            statement.bind(10, settings.carryOver.expiryCode)
            statement.bind(11, settings.proRata.method.rawValue)
            statement.bind(12, settings.proRata.rounding.rawValue)
            statement.bind(13, settings.seniority.code)
            statement.bind(14, settings.seniority.from.rawValue)
            statement.bind(15, settings.accrual.code)
        }
        try SQLCompanyFeeds.save(connection, urls: company.feeds)
    }
}
