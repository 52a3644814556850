import GRDB
import SGMigrations

/// Databases as an older release left them, for the tests of the migrations that follow.
enum OlderSchemas {
    /// Creates the file at `path` with the migrations before `identifier` (in their order), runs `fill` in one
    /// transaction, and closes it, so that the program under test opens it as it would an older release's.
    static func make(at path: String, before identifier: String, fill: @escaping @Sendable (Database) throws -> Void) async throws {
        let queue = try DatabaseQueue(path: path)
        var migrator = DatabaseMigrator()
        for migration in SchemaMigrations.all.prefix(while: { $0.identifier < identifier }) {
            migrator.registerMigration(migration.identifier) { db in try db.execute(sql: migration.sql) }
        }
        try migrator.migrate(queue)
        try await queue.write(fill)
        try queue.close()
    }
}
