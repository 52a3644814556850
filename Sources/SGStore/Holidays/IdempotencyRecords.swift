import Foundation
import SGCore
import SGSQLite

/// Versions of requests and the answers kept under retry keys (`idempotency_keys`).
extension SQLHolidayTransaction {
    func requestVersion(id: Int64) throws -> Int {
        try connection.with("SELECT COUNT(*) FROM holiday_events WHERE request_id = ?") { statement in
            statement.bind(1, id)
            _ = try statement.step()
            return statement.int(0)
        }
    }

    func idempotencyRecord(employeeID: Int64, key: String) throws -> IdempotencyRecord? {
        try connection.with(
            "SELECT route, fingerprint, status, headers, body, created_at FROM idempotency_keys WHERE employee_id = ? AND key = ?"
        ) { statement in
            statement.bind(1, employeeID)
            statement.bind(2, key)
            guard try statement.step() else { return nil }
            let headers = try JSONDecoder().decode([String: String].self, from: Data(statement.text(3).utf8))
            return IdempotencyRecord(
                employeeID: employeeID, key: key, route: statement.text(0), fingerprint: statement.text(1), status: statement.int(2),
                headers: headers, body: statement.blob(4), createdAt: try statement.timestamp(5))
        }
    }

    func keep(_ response: IdempotencyRecord, expiredBefore: Date) throws -> Bool {
        try connection.execute("DELETE FROM idempotency_keys WHERE created_at < ?") { statement in
            statement.bind(1, Timestamp.format(expiredBefore))
        }
        let headers = String(decoding: try JSONEncoder().encode(response.headers), as: UTF8.self)
        try connection.execute(
            """
            INSERT INTO idempotency_keys (employee_id, key, route, fingerprint, status, headers, body, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
            """
        ) { statement in
            statement.bind(1, response.employeeID)
            statement.bind(2, response.key)
            statement.bind(3, response.route)
            statement.bind(4, response.fingerprint)
            statement.bind(5, response.status)
            statement.bind(6, headers)
            statement.bind(7, blob: response.body)
            statement.bind(8, Timestamp.format(response.createdAt))
        }
        return connection.changes > 0
    }
}
