import Foundation
import SGCore
import SGSQLite

/// Reads shared by the rules, the API and `sgadmin`, on an `SQLConnection`. Rows are decoded here, by column
/// position, and nowhere else.
enum Rows {
    // MARK: Company

    /// The company's settings; on a pooled read connection, remembered until the next change to the database, on
    /// the write connection until the next change to the company (`WriterKept`).
    static func company(_ connection: SQLConnection) throws -> CompanySettings {
        let cache = try connection.validatedCache()
        if let company = cache?[CachedCompany.self] { return company }
        if cache == nil, let kept = try WriterKept.current(connection) { return try kept.company { try readCompany(connection) } }
        let company = try readCompany(connection)
        cache?[CachedCompany.self] = company
        return company
    }

    private static func readCompany(_ connection: SQLConnection) throws -> CompanySettings {
        try connection.with(
            """
            SELECT name, working_days, default_allowance, timezone, carry_over_cap_halves, carry_over_expiry, pro_rata, pro_rata_rounding,
                seniority, seniority_from, accrual
            FROM company WHERE id = 1
            """
        ) { statement in
            guard try statement.step() else {
                throw SGError.conflict("The company row is missing: the database was not created by `sgadmin migrate`.")
            }
            let expiry = CarryOverPolicy.expiry(code: statement.text(5))
            return CompanySettings(
                name: statement.text(0),
                workingWeek: WorkingWeek(code: statement.text(1)) ?? .mondayToFriday,
                defaultAllowance: statement.int(2),
                timeZoneIdentifier: statement.text(3),
                carryOver: expiry.flatMap {
                    CarryOverPolicy(cap: HalfDays(halves: statement.int(4)), expiryMonth: $0.month, expiryDay: $0.day)
                } ?? .standard,
                proRata: ProRataPolicy(
                    method: ProRataPolicy.Method(rawValue: statement.text(6)) ?? .off,
                    rounding: ProRataPolicy.Rounding(rawValue: statement.text(7)) ?? .nearest),
                seniority: SeniorityPolicy.tiers(code: statement.text(8)).flatMap {
                    SeniorityPolicy(tiers: $0, from: SeniorityPolicy.From(rawValue: statement.text(9)) ?? .year)
                } ?? .none,
                accrual: AccrualPlan(code: statement.text(10)) ?? .yearly)
        }
    }

    static func companyContact(_ connection: SQLConnection) throws -> CompanyContact {
        try connection.with("SELECT address, phone, email, website FROM company WHERE id = 1") { statement in
            guard try statement.step() else {
                throw SGError.conflict("The company row is missing: the database was not created by `sgadmin migrate`.")
            }
            return CompanyContact(
                address: statement.optionalText(0), phone: statement.optionalText(1), email: statement.optionalText(2),
                website: statement.optionalText(3))
        }
    }

    // MARK: Employees

    static let employeeColumns = "id, username, name, surname, email, is_admin, is_active"
    /// How many columns `employeeColumns` are: where the next selected column starts.
    static let employeeColumnCount = Int32(employeeColumns.split(separator: ",").count)

    /// `employeeColumns` of the table aliased `e`, for joins.
    static let employeeColumnsOfE = qualified(employeeColumns, "e")

    private static func qualified(_ columns: String, _ alias: String) -> String {
        columns.split(separator: ",").map { "\(alias).\($0.trimmingCharacters(in: .whitespaces))" }.joined(separator: ", ")
    }

    /// Employment dates from `employment_start, employment_end` selected at column `first`.
    static func employment(_ statement: SQLStatement, from first: Int32) throws -> Employment {
        Employment(
            start: statement.isNull(first) ? nil : try statement.date(first),
            end: statement.isNull(first + 1) ? nil : try statement.date(first + 1))
    }

    /// An employee's accrual plan from the nullable code in `column` (NULL: the company's).
    static func accrual(_ statement: SQLStatement, _ column: Int32) -> AccrualPlan? {
        statement.optionalText(column).flatMap(AccrualPlan.init(code:))
    }

    /// An employee from `employeeColumns` starting at column `first`.
    static func employee(_ statement: SQLStatement, from first: Int32 = 0) -> Employee {
        Employee(
            id: statement.int64(first), username: statement.text(first + 1), name: statement.text(first + 2),
            surname: statement.text(first + 3), email: statement.text(first + 4), isAdmin: statement.bool(first + 5),
            isActive: statement.bool(first + 6))
    }

    static func employee(_ connection: SQLConnection, id: Int64) throws -> Employee? {
        try connection.with("SELECT \(employeeColumns) FROM employees WHERE id = ?") { statement in
            statement.bind(1, id)
            return try statement.step() ? employee(statement) : nil
        }
    }

    static func employee(_ connection: SQLConnection, username: String) throws -> Employee? {
        try connection.with("SELECT \(employeeColumns) FROM employees WHERE username = ?") { statement in
            statement.bind(1, username)
            return try statement.step() ? employee(statement) : nil
        }
    }

    /// Where the directory order (folded sort key, then id) resumes after the employee: their sort key; nil when there is
    /// no such employee (or their key is not filled yet).
    static func sortKey(_ connection: SQLConnection, employeeID: Int64) throws -> String? {
        try connection.with("SELECT sort_key FROM employees WHERE id = ?") { statement in
            statement.bind(1, employeeID)
            return try statement.step() ? statement.optionalText(0) : nil
        }
    }

    // MARK: Requests

    /// A request's columns, of the table aliased `r` (every query of requests names it so), with its type's name and
    /// whether the type needs approval.
    static let requestColumns = """
        r.id, r.employee_id, r.leave_type_id, (SELECT name FROM leave_types WHERE id = r.leave_type_id), r.start_date, \
        r.end_date, r.starts_afternoon, r.ends_morning, r.halves, r.status, r.comment, r.created_at, r.updated_at, \
        r.decided_by, r.decided_at, (SELECT needs_approval FROM leave_types WHERE id = r.leave_type_id)
        """
    /// How many columns `requestColumns` are: where the next selected column starts.
    static let requestColumnCount: Int32 = 16

    /// The requests (aliased `r`) that hold their days, by the core's rule (`SchemaRules.holds`).
    static let holdsDays = SchemaRules.holds("r.status")

    /// Per-year days (aliased `d`) of the leave types that draw on the allowance.
    static let drawingTypes = "JOIN leave_types t ON t.id = d.leave_type_id AND t.draws_on_allowance = 1"

    /// No request covers more than `HolidayService.maximumSpanDays` days, so one that reaches `day` starts at most that
    /// many days before it. Bounding the start lets holiday_requests_employee (employee_id, start_date) skip an
    /// employee's older years instead of checking the end date of every request they ever made.
    static func earliestStart(touching day: CalendarDate) -> CalendarDate {
        day.adding(days: -HolidayService.maximumSpanDays) ?? day
    }

    /// A request from `requestColumns` starting at column 0; unreadable data is an error, not a guess.
    static func request(_ statement: SQLStatement) throws -> HolidayRequest {
        HolidayRequest(
            id: statement.int64(0), employeeID: statement.int64(1), leaveTypeID: statement.int64(2),
            leaveTypeName: statement.text(3), startDate: try statement.date(4), endDate: try statement.date(5),
            startHalf: statement.bool(6) ? .afternoon : .morning, endHalf: statement.bool(7) ? .morning : .afternoon,
            duration: HalfDays(halves: statement.int(8)), status: try statement.status(9), comment: statement.text(10),
            createdAt: try statement.timestamp(11), updatedAt: try statement.timestamp(12),
            decidedBy: statement.optionalText(13), decidedAt: try statement.optionalTimestamp(14),
            typeNeedsApproval: statement.isNull(15) || statement.bool(15))
    }

    static func request(_ connection: SQLConnection, id: Int64) throws -> HolidayRequest? {
        try connection.with("SELECT \(requestColumns) FROM holiday_requests r WHERE r.id = ?") { statement in
            statement.bind(1, id)
            return try statement.step() ? try request(statement) : nil
        }
    }

    static func daysByYear(_ connection: SQLConnection, requestID: Int64) throws -> [Int: HalfDays] {
        try connection.with("SELECT year, halves FROM holiday_request_days WHERE request_id = ?") { statement in
            statement.bind(1, requestID)
            var result: [Int: HalfDays] = [:]
            while try statement.step() { result[statement.int(0)] = HalfDays(halves: statement.int(1)) }
            return result
        }
    }
}
