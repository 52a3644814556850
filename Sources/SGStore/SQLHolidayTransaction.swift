import Foundation
import GRDB
import SGCore

/// `HolidayTransaction` over one GRDB `Database` access. All SQL that the rules depend on lives here.
struct SQLHolidayTransaction: HolidayTransaction {
    let db: Database

    func company() throws -> CompanySettings {
        try Queries.company(db)
    }

    func employee(id: Int64) throws -> Employee? {
        try Queries.employee(db, id: id)
    }

    func employee(username: String) throws -> Employee? {
        try Queries.employee(db, username: username)
    }

    func publicHolidays(from start: CalendarDate, to end: CalendarDate) throws -> Set<CalendarDate> {
        let rows = try String.fetchAll(
            db.cachedStatement(sql: "SELECT date FROM public_holidays WHERE date BETWEEN ? AND ?"),
            arguments: [start.description, end.description])
        return Set(rows.compactMap(CalendarDate.init(iso:)))
    }

    func allowanceOverride(employeeID: Int64, year: Int) throws -> Int? {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT days FROM allowances WHERE employee_id = ? AND year = ?"),
            arguments: [employeeID, year])
    }

    func heldDays(employeeID: Int64, year: Int) throws -> (approved: Int, pending: Int) {
        try Queries.heldDays(db, employeeID: employeeID, year: year)
    }

    func overlappingRequests(employeeID: Int64, from start: CalendarDate, to end: CalendarDate) throws -> [HolidayRequest] {
        try Queries.requests(
            db,
            sql: """
                SELECT * FROM holiday_requests
                WHERE employee_id = ? AND status IN ('pending', 'approved') AND start_date <= ? AND end_date >= ?
                ORDER BY start_date, id
                """,
            arguments: [employeeID, end.description, start.description])
    }

    func request(id: Int64) throws -> HolidayRequest? {
        try Queries.request(db, id: id)
    }

    func daysByYear(requestID: Int64) throws -> [Int: Int] {
        var result: [Int: Int] = [:]
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT year, days FROM holiday_request_days WHERE request_id = ?"),
            arguments: [requestID])
        for row in rows { result[row["year"]] = row["days"] }
        return result
    }

    func insertRequest(
        employeeID: Int64, start: CalendarDate, end: CalendarDate, daysByYear: [Int: Int], comment: String, at: Date
    ) throws -> HolidayRequest {
        let now = Timestamp.format(at)
        let total = daysByYear.values.reduce(0, +)
        try db.execute(
            sql: """
                INSERT INTO holiday_requests (employee_id, start_date, end_date, working_days, status, comment, created_at, updated_at)
                VALUES (?, ?, ?, ?, 'pending', ?, ?, ?)
                """,
            arguments: [employeeID, start.description, end.description, total, comment, now, now])
        let id = db.lastInsertedRowID
        for (year, days) in daysByYear.sorted(by: { $0.key < $1.key }) {
            try db.execute(
                sql: "INSERT INTO holiday_request_days (request_id, employee_id, year, days) VALUES (?, ?, ?, ?)",
                arguments: [id, employeeID, year, days])
        }
        guard let request = try Queries.request(db, id: id) else {
            throw SGError.conflict("The new request \(id) could not be read back.")
        }
        return request
    }

    func updateStatus(requestID: Int64, to status: HolidayStatus, at: Date, decidedBy: String?) throws {
        let now = Timestamp.format(at)
        if let decidedBy {
            try db.execute(
                sql: "UPDATE holiday_requests SET status = ?, updated_at = ?, decided_by = ?, decided_at = ? WHERE id = ?",
                arguments: [status.rawValue, now, decidedBy, now, requestID])
        } else {
            try db.execute(
                sql: "UPDATE holiday_requests SET status = ?, updated_at = ? WHERE id = ?",
                arguments: [status.rawValue, now, requestID])
        }
    }

    func appendEvent(requestID: Int64, from: HolidayStatus?, to: HolidayStatus, actor: Actor, at: Date, note: String) throws {
        try db.execute(
            sql: """
                INSERT INTO holiday_events (request_id, from_status, to_status, actor, actor_employee_id, at, note)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [requestID, from?.rawValue, to.rawValue, actor.name, actor.employeeID, Timestamp.format(at), note])
    }

    func setAllowance(employeeID: Int64, year: Int, days: Int) throws {
        try db.execute(
            sql: """
                INSERT INTO allowances (employee_id, year, days) VALUES (?, ?, ?)
                ON CONFLICT (employee_id, year) DO UPDATE SET days = excluded.days
                """,
            arguments: [employeeID, year, days])
    }

    func setDefaultAllowance(_ days: Int) throws {
        try db.execute(sql: "UPDATE company SET default_allowance = ? WHERE id = 1", arguments: [days])
    }

    func yearsHoldingMoreThan(defaultAllowance days: Int) throws -> [(employeeID: Int64, year: Int, held: Int)] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT d.employee_id, d.year, SUM(d.days) AS held
                FROM holiday_request_days d JOIN holiday_requests r ON r.id = d.request_id
                WHERE r.status IN ('pending', 'approved')
                  AND NOT EXISTS (SELECT 1 FROM allowances a WHERE a.employee_id = d.employee_id AND a.year = d.year)
                GROUP BY d.employee_id, d.year
                HAVING held > ?
                ORDER BY d.employee_id, d.year
                """,
            arguments: [days])
        return rows.map { (employeeID: $0["employee_id"], year: $0["year"], held: $0["held"]) }
    }

    func appendNotice(_ notice: PersonalNotice) throws {
        let at = Timestamp.format(notice.at)
        try db.execute(
            sql: """
                INSERT INTO notices (kind, employee_id, title, body, author, author_employee_id, request_id,
                                     from_status, to_status, note, read_at, created_at, updated_at)
                VALUES ('personal', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                notice.employeeID, notice.title, notice.body, notice.author, notice.authorEmployeeID, notice.requestID,
                notice.from?.rawValue, notice.to.rawValue, notice.note, notice.read ? at : nil, at, at,
            ])
    }

    func companyContact() throws -> CompanyContact {
        try Queries.companyContact(db)
    }

    func saveCompany(_ company: Company) throws {
        let settings = company.settings, contact = company.contact
        try db.execute(
            sql: """
                UPDATE company SET name = ?, working_days = ?, default_allowance = ?, timezone = ?,
                                   address = ?, phone = ?, email = ?, website = ?
                WHERE id = 1
                """,
            arguments: [
                settings.name, settings.workingWeek.code, settings.defaultAllowance, settings.timeZoneIdentifier,
                contact.address, contact.phone, contact.email, contact.website,
            ])
    }
}
