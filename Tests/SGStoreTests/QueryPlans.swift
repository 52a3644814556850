import GRDB
import SGTestSupport

extension Fixture {
    /// SQLite's plan for `sql` with `arguments`: the detail of each step, a line each.
    func queryPlan(_ sql: String, _ arguments: StatementArguments = []) async throws -> String {
        try await database.read { (db: Database) in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String? ?? "" }
                .joined(separator: "\n")
        }
    }
}
