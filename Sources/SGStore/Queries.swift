import Foundation
import GRDB
import SGCore
import SGSQLite

/// Reads inside GRDB transactions, for the account, profile and notice writes. The rules and the hot reads use
/// `Rows` on an `SQLConnection` instead.
public enum Queries {
    /// The company's settings, for writes that run in GRDB (notices); decoded by `Rows` like every other read.
    static func company(_ db: Database) throws -> CompanySettings {
        try Rows.company(SQLConnection(borrowing: db.sqliteConnection!))
    }

    static func employee(from row: Row) -> Employee {
        Employee(
            id: row["id"], username: row["username"], name: row["name"], surname: row["surname"], email: row["email"],
            isAdmin: row["is_admin"], isActive: row["is_active"])
    }

    static let employeeColumns = Rows.employeeColumns

    static func employee(_ db: Database, id: Int64) throws -> Employee? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(employeeColumns) FROM employees WHERE id = ?"), arguments: [id])
            .map(employee(from:))
    }

    static func employee(_ db: Database, username: String) throws -> Employee? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(employeeColumns) FROM employees WHERE username = ?"), arguments: [username]
        ).map(employee(from:))
    }
}
