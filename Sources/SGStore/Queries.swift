import Foundation
import GRDB
import SGCore

/// Reads shared by the rules, the API and `sgadmin`. Rows are decoded here and nowhere else.
public enum Queries {
    static func company(_ db: Database) throws -> CompanySettings {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM company WHERE id = 1")) else {
            throw SGError.conflict("The company row is missing: the database was not created by `sgadmin migrate`.")
        }
        return CompanySettings(
            name: row["name"],
            workingWeek: WorkingWeek(code: row["working_days"]) ?? .mondayToFriday,
            defaultAllowance: row["default_allowance"],
            timeZoneIdentifier: row["timezone"])
    }

    static func companyContact(_ db: Database) throws -> CompanyContact {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT address, phone, email, website FROM company WHERE id = 1")) else {
            throw SGError.conflict("The company row is missing: the database was not created by `sgadmin migrate`.")
        }
        return CompanyContact(address: row["address"], phone: row["phone"], email: row["email"], website: row["website"])
    }

    static func employee(from row: Row) -> Employee {
        Employee(
            id: row["id"], username: row["username"], name: row["name"], surname: row["surname"], email: row["email"],
            isAdmin: row["is_admin"], isActive: row["is_active"])
    }

    static let employeeColumns = "id, username, name, surname, email, is_admin, is_active"

    /// The employee's columns in a query joining `employees e`, prefixed so they do not clash with the other table's.
    static let joinedEmployeeColumns =
        "e.username AS e_username, e.name AS e_name, e.surname AS e_surname, e.email AS e_email, e.is_admin AS e_is_admin, e.is_active AS e_is_active"

    static func joinedEmployee(from row: Row, id: Int64) -> Employee {
        Employee(
            id: id, username: row["e_username"], name: row["e_name"], surname: row["e_surname"], email: row["e_email"],
            isAdmin: row["e_is_admin"], isActive: row["e_is_active"])
    }

    static func employee(_ db: Database, id: Int64) throws -> Employee? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(employeeColumns) FROM employees WHERE id = ?"), arguments: [id])
            .map(employee(from:))
    }

    static func employee(_ db: Database, username: String) throws -> Employee? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(employeeColumns) FROM employees WHERE username = ?"), arguments: [username]
        ).map(employee(from:))
    }

    static func request(from row: Row) throws -> HolidayRequest {
        let id: Int64 = row["id"]
        guard let start = CalendarDate(iso: row["start_date"]), let end = CalendarDate(iso: row["end_date"]),
              let status = HolidayStatus(rawValue: row["status"]),
              let created = Timestamp.parse(row["created_at"]), let updated = Timestamp.parse(row["updated_at"])
        else { throw SGError.conflict("Holiday request \(id) holds data this program cannot read.") }
        return HolidayRequest(
            id: id, employeeID: row["employee_id"], startDate: start, endDate: end, workingDays: row["working_days"],
            status: status, comment: row["comment"], createdAt: created, updatedAt: updated,
            decidedBy: row["decided_by"], decidedAt: (row["decided_at"] as String?).flatMap(Timestamp.parse))
    }

    static func request(_ db: Database, id: Int64) throws -> HolidayRequest? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM holiday_requests WHERE id = ?"), arguments: [id])
            .map(request(from:))
    }

    static func requests(_ db: Database, sql: String, arguments: StatementArguments) throws -> [HolidayRequest] {
        try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map(request(from:))
    }

    static func heldDays(_ db: Database, employeeID: Int64, year: Int) throws -> (approved: Int, pending: Int) {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT r.status, SUM(d.days) AS days
                    FROM holiday_request_days d JOIN holiday_requests r ON r.id = d.request_id
                    WHERE d.employee_id = ? AND d.year = ? AND r.status IN ('pending', 'approved')
                    GROUP BY r.status
                    """),
            arguments: [employeeID, year])
        var approved = 0, pending = 0
        for row in rows {
            if row["status"] == "approved" { approved = row["days"] } else { pending = row["days"] }
        }
        return (approved, pending)
    }
}
