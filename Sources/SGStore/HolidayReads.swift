import Foundation
import SGCore
import SGSQLite

public struct RequestFilter: Sendable, Equatable {
    public var status: HolidayStatus?
    public var year: Int?
    public var employeeID: Int64?
    /// Keyset pagination: only requests with a larger id.
    public var afterID: Int64?
    public var limit: Int

    public init(status: HolidayStatus? = nil, year: Int? = nil, employeeID: Int64? = nil, afterID: Int64? = nil, limit: Int = 50) {
        self.status = status
        self.year = year
        self.employeeID = employeeID
        self.afterID = afterID
        self.limit = limit
    }
}

/// A request with the employee it belongs to, for lists.
public struct RequestWithEmployee: Sendable {
    public let request: HolidayRequest
    public let employee: Employee
}

public struct RequestPage: Sendable {
    public let items: [RequestWithEmployee]
    /// How many requests match the filter in all pages.
    public let total: Int
    /// Pass as `afterID` for the next page; nil on the last page.
    public let nextAfterID: Int64?
}

/// A request with everything its detail screen shows, read in one snapshot: its history, its days per year, and
/// what an admin needs to decide it (the requester's other requests and balances in the years it draws on).
public struct RequestDetail: Sendable {
    public let request: HolidayRequest
    public let employee: Employee
    public let events: [HolidayEvent]
    public let daysByYear: [Int: Int]
    /// The requester's other requests touching the years this one draws on.
    public let otherRequests: [HolidayRequest]
    /// The requester's balance in each year this one draws on.
    public let balances: [Balance]
    /// The company's today at the instant the detail was read.
    public let today: CalendarDate
}

/// One row of HR's yearly export.
public struct ExportRow: Sendable {
    public let employee: Employee
    public let request: HolidayRequest
    /// The request's working days that fall in the exported year.
    public let daysInYear: Int
}

extension AppDatabase {
    /// Requests matching `filter` in a stable order (by id, which is submission order), with the count of all
    /// matches, from one snapshot.
    public func requests(_ filter: RequestFilter) async throws -> RequestPage {
        try reading { connection in try Self.requests(connection, filter) }
    }

    /// Every request matching `filter` (all pages), by id, from one snapshot.
    public func allRequests(_ filter: RequestFilter) async throws -> [RequestWithEmployee] {
        try reading { connection in
            var filter = filter
            filter.limit = Int(Int32.max)
            return try Self.page(connection, filter)
        }
    }

    static func requests(_ connection: SQLConnection, _ filter: RequestFilter) throws -> RequestPage {
        // The status filter is served by holiday_requests_status (status, id): the count reads only that index.
        let total = try connection.with(countSQL(filter)) { statement in
            _ = bind(filter, statement, includingAfter: false)
            return try statement.step() ? statement.int(0) : 0
        }
        let items = try page(connection, filter, oneMore: true)
        let shown = Array(items.prefix(filter.limit))
        return RequestPage(items: shown, total: total, nextAfterID: items.count > shown.count ? shown.last?.request.id : nil)
    }

    /// The page after `filter.afterID`, ordered by id; with `oneMore`, one row past the limit tells whether a next
    /// page exists.
    private static func page(_ connection: SQLConnection, _ filter: RequestFilter, oneMore: Bool = false) throws -> [RequestWithEmployee] {
        try connection.with(pageSQL(filter)) { statement in
            let last = bind(filter, statement, includingAfter: true)
            statement.bind(last + 1, oneMore ? filter.limit + 1 : filter.limit)
            var items: [RequestWithEmployee] = []
            while try statement.step() {
                items.append(RequestWithEmployee(request: try Rows.request(statement), employee: Rows.employee(statement, from: Rows.requestColumnCount)))
            }
            return items
        }
    }

    static func countSQL(_ filter: RequestFilter) -> String {
        "SELECT COUNT(*) FROM holiday_requests r \(whereClause(filter, includingAfter: false))"
    }

    /// Ordered by id: with a status filter, holiday_requests_status (status, id) gives the rows in order, so the
    /// page stops after `limit` rows instead of sorting every match.
    static func pageSQL(_ filter: RequestFilter) -> String {
        """
        SELECT \(Rows.requestColumnsOfR), \(Rows.employeeColumnsOfE)
        FROM holiday_requests r JOIN employees e ON e.id = r.employee_id
        \(whereClause(filter, includingAfter: true)) ORDER BY r.id LIMIT ?
        """
    }

    private static func whereClause(_ filter: RequestFilter, includingAfter: Bool) -> String {
        var conditions: [String] = []
        if filter.status != nil { conditions.append("r.status = ?") }
        if filter.year != nil { conditions.append("r.start_date <= ? AND r.end_date >= ?") }
        if filter.employeeID != nil { conditions.append("r.employee_id = ?") }
        if includingAfter && filter.afterID != nil { conditions.append("r.id > ?") }
        return conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    }

    /// Binds the parameters of `whereClause` in the same order; returns the last index bound.
    private static func bind(_ filter: RequestFilter, _ statement: SQLStatement, includingAfter: Bool) -> Int32 {
        var index: Int32 = 0
        if let status = filter.status { index += 1; statement.bind(index, status.rawValue) }
        if let year = filter.year {
            index += 1; statement.bind(index, CalendarDate.lastOfYear(year)!)
            index += 1; statement.bind(index, CalendarDate.firstOfYear(year)!)
        }
        if let employeeID = filter.employeeID { index += 1; statement.bind(index, employeeID) }
        if includingAfter, let afterID = filter.afterID { index += 1; statement.bind(index, afterID) }
        return index
    }

    public func requestDetail(id: Int64, at now: Date = Date()) async throws -> RequestDetail? {
        try reading { connection in
            guard let request = try Rows.request(connection, id: id), let employee = try Rows.employee(connection, id: request.employeeID)
            else { return nil }
            let events = try connection.with(
                "SELECT id, request_id, from_status, to_status, actor, actor_employee_id, at, note FROM holiday_events WHERE request_id = ? ORDER BY id"
            ) { statement in
                statement.bind(1, id)
                var events: [HolidayEvent] = []
                while try statement.step() {
                    events.append(HolidayEvent(
                        id: statement.int64(0), requestID: statement.int64(1),
                        from: statement.isNull(2) ? nil : try statement.status(2), to: try statement.status(3),
                        actor: statement.text(4), actorEmployeeID: statement.optionalInt64(5), at: try statement.timestamp(6),
                        note: statement.text(7)))
                }
                return events
            }
            let tx = SQLHolidayTransaction(connection: connection)
            let daysByYear = try tx.daysByYear(requestID: id)
            let years = daysByYear.isEmpty ? [request.startDate.year] : daysByYear.keys.sorted()
            let others = try tx.requests(employeeID: request.employeeID, touchingYears: years.first!...years.last!)
                .filter { $0.id != request.id }
            let company = try tx.company()
            let balances = try years.map {
                try HolidayService.balance(tx, employeeID: request.employeeID, year: $0, company: company)
            }
            return RequestDetail(
                request: request, employee: employee, events: events, daysByYear: daysByYear, otherRequests: others,
                balances: balances, today: HolidayService.today(now, company))
        }
    }

    public func company() async throws -> CompanySettings {
        try reading { connection in try Rows.company(connection) }
    }

    // MARK: Public holidays

    public func addPublicHoliday(_ holiday: PublicHoliday) async throws {
        let name = try TextRules.line(holiday.name, field: "name", maximum: PublicHoliday.maximumNameLength)
        try await writing { connection in
            let existing = try connection.with("SELECT name FROM public_holidays WHERE date = ?") { statement in
                statement.bind(1, holiday.date)
                return try statement.step() ? statement.text(0) : nil
            }
            if let existing {
                throw SGError.conflict("\(holiday.date) is already a public holiday (\(existing)).")
            }
            try connection.execute("INSERT INTO public_holidays (date, name) VALUES (?, ?)") { statement in
                statement.bind(1, holiday.date)
                statement.bind(2, name)
            }
        }
    }

    public func publicHolidays(year: Int?) async throws -> [PublicHoliday] {
        try reading { connection in
            let sql = year == nil
                ? "SELECT date, name FROM public_holidays ORDER BY date"
                : "SELECT date, name FROM public_holidays WHERE date BETWEEN ? AND ? ORDER BY date"
            return try connection.with(sql) { statement in
                if let year {
                    statement.bind(1, CalendarDate.firstOfYear(year)!)
                    statement.bind(2, CalendarDate.lastOfYear(year)!)
                }
                var holidays: [PublicHoliday] = []
                while try statement.step() { holidays.append(PublicHoliday(date: try statement.date(0), name: statement.text(1))) }
                return holidays
            }
        }
    }

    // MARK: Export

    /// Every request touching `year`, by employee then start date, for HR's CSV: handed to `row` one at a time
    /// from one snapshot, so that a year of a large company never sits in memory at once.
    public func exportRows(year: Int, _ row: (ExportRow) throws -> Void) throws {
        try reading { connection in
            try connection.with(
                """
                SELECT \(Rows.requestColumnsOfR), \(Rows.employeeColumnsOfE),
                       COALESCE((SELECT d.days FROM holiday_request_days d WHERE d.request_id = r.id AND d.year = ?), 0)
                FROM holiday_requests r JOIN employees e ON e.id = r.employee_id
                WHERE r.start_date <= ? AND r.end_date >= ?
                ORDER BY e.surname, e.name, e.id, r.start_date, r.id
                """
            ) { statement in
                statement.bind(1, year)
                statement.bind(2, CalendarDate.lastOfYear(year)!)
                statement.bind(3, CalendarDate.firstOfYear(year)!)
                while try statement.step() {
                    try row(ExportRow(
                        employee: Rows.employee(statement, from: Rows.requestColumnCount), request: try Rows.request(statement),
                        daysInYear: statement.int(Rows.requestColumnCount + Rows.employeeColumnCount)))
                }
            }
        }
    }

    /// Every employee's balance for `year` (inactive ones included), by surname.
    public func balances(year: Int) throws -> [(Employee, Balance)] {
        try reading { connection in
            let company = try Rows.company(connection)
            var approved: [Int64: Int] = [:], pending: [Int64: Int] = [:]
            try connection.with(
                """
                SELECT d.employee_id, r.status = 'approved', SUM(d.days)
                FROM holiday_request_days d JOIN holiday_requests r ON r.id = d.request_id
                WHERE d.year = ? AND r.status IN ('pending', 'approved')
                GROUP BY d.employee_id, r.status
                """
            ) { statement in
                statement.bind(1, year)
                while try statement.step() {
                    if statement.bool(1) { approved[statement.int64(0)] = statement.int(2) } else { pending[statement.int64(0)] = statement.int(2) }
                }
            }
            var overrides: [Int64: Int] = [:]
            try connection.with("SELECT employee_id, days FROM allowances WHERE year = ?") { statement in
                statement.bind(1, year)
                while try statement.step() { overrides[statement.int64(0)] = statement.int(1) }
            }
            return try connection.with("SELECT \(Rows.employeeColumns) FROM employees ORDER BY surname, name, id") { statement in
                var rows: [(Employee, Balance)] = []
                while try statement.step() {
                    let employee = Rows.employee(statement)
                    rows.append((employee, Balance(
                        year: year, allowance: overrides[employee.id] ?? company.defaultAllowance,
                        approved: approved[employee.id] ?? 0, pending: pending[employee.id] ?? 0)))
                }
                return rows
            }
        }
    }
}
