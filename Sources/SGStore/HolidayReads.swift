import Foundation
import GRDB
import SGCore

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

public struct RequestDetail: Sendable {
    public let request: HolidayRequest
    public let employee: Employee
    public let events: [HolidayEvent]
    public let daysByYear: [Int: Int]
}

/// One row of HR's yearly export.
public struct ExportRow: Sendable {
    public let employee: Employee
    public let request: HolidayRequest
    /// The request's working days that fall in the exported year.
    public let daysInYear: Int
}

extension AppDatabase {
    /// Requests matching `filter` in a stable order (by id, which is submission order).
    public func requests(_ filter: RequestFilter) async throws -> RequestPage {
        try await read { (db: Database) in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if let status = filter.status {
                conditions.append("r.status = ?")
                arguments += [status.rawValue]
            }
            if let year = filter.year {
                conditions.append("r.start_date <= ? AND r.end_date >= ?")
                arguments += [CalendarDate.lastOfYear(year)!.description, CalendarDate.firstOfYear(year)!.description]
            }
            if let employeeID = filter.employeeID {
                conditions.append("r.employee_id = ?")
                arguments += [employeeID]
            }
            let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let total = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM holiday_requests r \(whereClause)"), arguments: arguments) ?? 0
            var pageConditions = conditions
            var pageArguments = arguments
            if let afterID = filter.afterID {
                pageConditions.append("r.id > ?")
                pageArguments += [afterID]
            }
            let pageWhere = pageConditions.isEmpty ? "" : "WHERE " + pageConditions.joined(separator: " AND ")
            pageArguments += [filter.limit + 1]
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT r.*, \(Queries.joinedEmployeeColumns)
                        FROM holiday_requests r JOIN employees e ON e.id = r.employee_id
                        \(pageWhere) ORDER BY r.id LIMIT ?
                        """),
                arguments: pageArguments)
            var items: [RequestWithEmployee] = []
            for row in rows.prefix(filter.limit) {
                let request = try Queries.request(from: row)
                items.append(RequestWithEmployee(request: request, employee: Queries.joinedEmployee(from: row, id: request.employeeID)))
            }
            return RequestPage(
                items: items, total: total, nextAfterID: rows.count > filter.limit ? items.last?.request.id : nil)
        }
    }

    public func requestDetail(id: Int64) async throws -> RequestDetail? {
        try await read { (db: Database) in
            guard let request = try Queries.request(db, id: id), let employee = try Queries.employee(db, id: request.employeeID)
            else { return nil }
            let events = try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM holiday_events WHERE request_id = ? ORDER BY id"), arguments: [id]
            ).map { row in
                HolidayEvent(
                    id: row["id"], requestID: row["request_id"],
                    from: (row["from_status"] as String?).flatMap(HolidayStatus.init(rawValue:)),
                    to: HolidayStatus(rawValue: row["to_status"]) ?? .pending,
                    actor: row["actor"], actorEmployeeID: row["actor_employee_id"],
                    at: Timestamp.parse(row["at"]) ?? Date(timeIntervalSince1970: 0), note: row["note"])
            }
            return RequestDetail(
                request: request, employee: employee, events: events,
                daysByYear: try SQLHolidayTransaction(db: db).daysByYear(requestID: id))
        }
    }

    /// One employee's requests that touch `year`, by start date, with that year's balance.
    public func requestsAndBalance(employeeID: Int64, year: Int) async throws -> ([HolidayRequest], Balance) {
        try await read { (db: Database) in
            let requests = try Queries.requests(
                db,
                sql: """
                    SELECT * FROM holiday_requests
                    WHERE employee_id = ? AND start_date <= ? AND end_date >= ?
                    ORDER BY start_date, id
                    """,
                arguments: [employeeID, CalendarDate.lastOfYear(year)!.description, CalendarDate.firstOfYear(year)!.description])
            let balance = try HolidayService.balance(
                SQLHolidayTransaction(db: db), employeeID: employeeID, year: year, company: try Queries.company(db))
            return (requests, balance)
        }
    }

    public func company() async throws -> CompanySettings {
        try await read { (db: Database) in try Queries.company(db) }
    }

    // MARK: Public holidays

    public func addPublicHoliday(_ holiday: PublicHoliday) async throws {
        let name = holiday.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 100 else {
            throw SGError.invalid(field: "name", message: "1 to 100 characters")
        }
        try await write { (db: Database) in
            if let existing = try String.fetchOne(
                db, sql: "SELECT name FROM public_holidays WHERE date = ?", arguments: [holiday.date.description]) {
                throw SGError.conflict("\(holiday.date) is already a public holiday (\(existing)).")
            }
            try db.execute(
                sql: "INSERT INTO public_holidays (date, name) VALUES (?, ?)", arguments: [holiday.date.description, name])
        }
    }

    public func publicHolidays(year: Int?) async throws -> [PublicHoliday] {
        try await read { (db: Database) in
            var sql = "SELECT date, name FROM public_holidays"
            var arguments: StatementArguments = []
            if let year {
                sql += " WHERE date BETWEEN ? AND ?"
                arguments = [CalendarDate.firstOfYear(year)!.description, CalendarDate.lastOfYear(year)!.description]
            }
            return try Row.fetchAll(db, sql: sql + " ORDER BY date", arguments: arguments).compactMap { row in
                CalendarDate(iso: row["date"]).map { PublicHoliday(date: $0, name: row["name"]) }
            }
        }
    }

    // MARK: Export

    /// Every request touching `year`, by employee then start date, for HR's CSV.
    public func exportRows(year: Int) async throws -> [ExportRow] {
        try await read { (db: Database) in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT r.*, \(Queries.joinedEmployeeColumns),
                           COALESCE((SELECT d.days FROM holiday_request_days d WHERE d.request_id = r.id AND d.year = ?), 0) AS days_in_year
                    FROM holiday_requests r JOIN employees e ON e.id = r.employee_id
                    WHERE r.start_date <= ? AND r.end_date >= ?
                    ORDER BY e.surname, e.name, e.id, r.start_date, r.id
                    """,
                arguments: [year, CalendarDate.lastOfYear(year)!.description, CalendarDate.firstOfYear(year)!.description])
            return try rows.map { row in
                let request = try Queries.request(from: row)
                return ExportRow(
                    employee: Queries.joinedEmployee(from: row, id: request.employeeID), request: request,
                    daysInYear: row["days_in_year"])
            }
        }
    }

    /// Every employee's balance for `year` (inactive ones included), by surname.
    public func balances(year: Int) async throws -> [(Employee, Balance)] {
        try await read { (db: Database) in
            let company = try Queries.company(db)
            let held = try Row.fetchAll(
                db,
                sql: """
                    SELECT d.employee_id, r.status, SUM(d.days) AS days
                    FROM holiday_request_days d JOIN holiday_requests r ON r.id = d.request_id
                    WHERE d.year = ? AND r.status IN ('pending', 'approved')
                    GROUP BY d.employee_id, r.status
                    """,
                arguments: [year])
            var approved: [Int64: Int] = [:], pending: [Int64: Int] = [:]
            for row in held {
                if row["status"] == "approved" { approved[row["employee_id"]] = row["days"] } else { pending[row["employee_id"]] = row["days"] }
            }
            var overrides: [Int64: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT employee_id, days FROM allowances WHERE year = ?", arguments: [year]) {
                overrides[row["employee_id"]] = row["days"]
            }
            return try Row.fetchAll(db, sql: "SELECT \(Queries.employeeColumns) FROM employees ORDER BY surname, name, id")
                .map(Queries.employee(from:))
                .map { employee in
                    (employee, Balance(
                        year: year, allowance: overrides[employee.id] ?? company.defaultAllowance,
                        approved: approved[employee.id] ?? 0, pending: pending[employee.id] ?? 0))
                }
        }
    }
}
