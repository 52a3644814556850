import Foundation
import SGMigrations
import SGPostgres
import SGSQLite

/// The schema on PostgreSQL: the same numbered migrations as on SQLite (each with its PostgreSQL text, empty where
/// there is nothing to do on this engine), recorded in the same `grdb_migrations` table.
enum PostgresSchema {
    /// The advisory lock every write transaction takes first: one writer at a time, across processes and servers.
    static let writeLock: Int64 = 0x5347_0001
    /// Taken by whoever migrates, so that two servers starting together do not both apply a migration.
    static let migrationLock: Int64 = 0x5347_0002

    static func applied(_ pool: PostgresPool) throws -> [String] {
        try pool.withConnection(until: .now + pool.endpoint.acquireTimeout) { connection, _ in try applied(connection) }
    }

    private static func applied(_ connection: SQLConnection) throws -> [String] {
        let exists = try connection.with("SELECT to_regclass('grdb_migrations') IS NOT NULL") { statement in
            _ = try statement.step()
            return statement.bool(0)
        }
        guard exists else { return [] }
        return try connection.with("SELECT identifier FROM grdb_migrations ORDER BY identifier") { statement in
            var identifiers: [String] = []
            while try statement.step() { identifiers.append(statement.text(0)) }
            return identifiers
        }
    }

    /// Applies the migrations not yet applied, all in one transaction; returns their identifiers.
    static func migrate(_ pool: PostgresPool) throws -> [String] {
        try pool.withConnection(until: .now + pool.endpoint.acquireTimeout) { connection, session in
            try session.execute("BEGIN")
            try connection.execute("SELECT pg_advisory_xact_lock(\(migrationLock))")
            try session.execute("CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            let done = Set(try applied(connection))
            var applied: [String] = []
            for migration in SchemaMigrations.all where !done.contains(migration.identifier) {
                try session.executeScript(migration.postgres)
                try connection.execute("INSERT INTO grdb_migrations (identifier) VALUES (?)") { statement in
                    statement.bind(1, migration.identifier)
                }
                applied.append(migration.identifier)
            }
            let rules = SchemaRules.digest(.postgres)
            let recorded = try connection.with("SELECT digest FROM schema_rules WHERE id = 1") { statement in
                try statement.step() ? statement.text(0) : nil
            }
            if recorded != rules {
                try session.executeScript(SchemaRules.postgres.joined(separator: ";\n") + ";")
                try connection.execute("UPDATE schema_rules SET digest = ? WHERE id = 1") { $0.bind(1, rules) }
            }
            if !applied.isEmpty || recorded != rules { try connection.execute("UPDATE commit_generation SET n = n + 1 WHERE id = 1") }
            try session.execute("COMMIT")
            return applied
        }
    }
}
