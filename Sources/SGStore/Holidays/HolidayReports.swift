import Foundation
import SGCore
import SGSQLite

/// The lists and reports of `HolidayReading`: request pages, history, HR's export, everyone's balances.
extension SQLHolidayTransaction {
    func requestPage(_ filter: RequestFilter) throws -> RequestPage {
        // The status filter is served by holiday_requests_status (status, id): the count reads only that index.
        let total = try connection.with(Self.countSQL(filter, connection.dialect)) { statement in
            _ = Self.bind(filter, statement, includingAfter: false)
            return try statement.step() ? statement.int(0) : 0
        }
        // Ordered by id: with a status filter, holiday_requests_status (status, id) gives the rows in order, so the
        // page stops after `limit` rows instead of sorting every match. One row past the limit tells whether a next
        // page exists.
        let items = try connection.with(Self.pageSQL(filter, connection.dialect)) { statement in
            let last = Self.bind(filter, statement, includingAfter: true)
            statement.bind(last + 1, filter.limit == Int(Int32.max) ? filter.limit : filter.limit + 1)
            var items: [RequestWithEmployee] = []
            // The count is known: one allocation, rather than copying a long list several times as it grows.
            items.reserveCapacity(min(total, filter.limit) + 1)
            while try statement.step() {
                items.append(RequestWithEmployee(
                    request: try Rows.request(statement), employee: Rows.employee(statement, from: Rows.requestColumnCount)))
            }
            return items
        }
        let shown = Array(items.prefix(filter.limit))
        return RequestPage(items: shown, total: total, nextAfterID: items.count > shown.count ? shown.last?.request.id : nil)
    }

    static func countSQL(_ filter: RequestFilter, _ dialect: SQLDialect = .sqlite) -> String {
        "SELECT COUNT(*) FROM holiday_requests r \(whereClause(filter, includingAfter: false, dialect))"
    }

    static func pageSQL(_ filter: RequestFilter, _ dialect: SQLDialect = .sqlite) -> String {
        """
        SELECT \(Rows.requestColumns), \(Rows.employeeColumnsOfE)
        FROM holiday_requests r JOIN employees e ON e.id = r.employee_id
        \(whereClause(filter, includingAfter: true, dialect)) ORDER BY r.id LIMIT ?
        """
    }

    private static func whereClause(_ filter: RequestFilter, includingAfter: Bool, _ dialect: SQLDialect) -> String {
        var conditions: [String] = []
        // The status is written into the statement, not bound: with a bound value, the partial index of approved
        // requests (0014) could be usable or not depending on it, and SQLite would then prepare the statement anew at
        // every run. One statement per status instead; the values are the enum's.
        if let status = filter.status { conditions.append("r.status = '\(status.rawValue)'") }
        if filter.year != nil { conditions.append("r.start_date <= ? AND r.end_date >= ?") }
        if filter.employeeID != nil { conditions.append("r.employee_id = ?") }
        if filter.employeeIDs != nil { conditions.append("r.employee_id IN (SELECT value FROM \(dialect.jsonValues("?")) AS ids)") }
        if filter.teamID != nil { conditions.append("r.employee_id IN (SELECT id FROM employees WHERE team_id = ?)") }
        if filter.leaveTypeID != nil { conditions.append("r.leave_type_id = ?") }
        if includingAfter && filter.afterID != nil { conditions.append("r.id > ?") }
        return conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    }

    /// Binds the parameters of `whereClause` in the same order; returns the last index bound.
    private static func bind(_ filter: RequestFilter, _ statement: SQLStatement, includingAfter: Bool) -> Int32 {
        var index: Int32 = 0
        if let year = filter.year {
            index += 1; statement.bind(index, CalendarDate.lastOfYear(year)!)
            index += 1; statement.bind(index, CalendarDate.firstOfYear(year)!)
        }
        if let employeeID = filter.employeeID { index += 1; statement.bind(index, employeeID) }
        if let ids = filter.employeeIDs { index += 1; statement.bind(index, jsonIDs: ids) }
        if let teamID = filter.teamID { index += 1; statement.bind(index, teamID) }
        if let leaveTypeID = filter.leaveTypeID { index += 1; statement.bind(index, leaveTypeID) }
        if includingAfter, let afterID = filter.afterID { index += 1; statement.bind(index, afterID) }
        return index
    }

    func events(requestID: Int64) throws -> [HolidayEvent] {
        try connection.with(
            "SELECT id, request_id, from_status, to_status, actor, actor_employee_id, at, note FROM holiday_events WHERE request_id = ? ORDER BY id"
        ) { statement in
            statement.bind(1, requestID)
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
    }

    func yearsWithData(employeeID: Int64) throws -> [Int] {
        try connection.with(
            """
            SELECT year FROM holiday_request_days WHERE employee_id = ?
            UNION SELECT year FROM allowances WHERE employee_id = ?
            UNION SELECT year FROM allowance_changes WHERE employee_id = ?
            ORDER BY year
            """
        ) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, employeeID)
            statement.bind(3, employeeID)
            var years: [Int] = []
            while try statement.step() { years.append(statement.int(0)) }
            return years
        }
    }

    func exportRows(year: Int, _ row: (ExportRow) throws -> Void) throws {
        try connection.with(
            """
            SELECT \(Rows.requestColumns), \(Rows.employeeColumnsOfE),
                   COALESCE((SELECT d.halves FROM holiday_request_days d WHERE d.request_id = r.id AND d.year = ?), 0),
                   (SELECT t.draws_on_allowance FROM leave_types t WHERE t.id = r.leave_type_id)
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
                    daysInYear: HalfDays(halves: statement.int(Rows.requestColumnCount + Rows.employeeColumnCount)),
                    drawsOnAllowance: statement.bool(Rows.requestColumnCount + Rows.employeeColumnCount + 1)))
            }
        }
    }

    func employees() throws -> [Employee] {
        try SQLAccounts(connection: connection).employees(includeInactive: true)
    }
}
