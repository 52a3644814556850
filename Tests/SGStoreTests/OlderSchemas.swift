import GRDB
import Testing
@testable import SGStore

/// Databases as an older release left them, for the tests of the migrations that follow.
enum OlderSchemas {
    /// Creates the file at `path` with the migrations before `identifier`, by the migrator `AppDatabase` opens with,
    /// runs `fill` in one transaction, and closes it, so that the program under test opens it as it would an older
    /// release's.
    static func make(at path: String, before identifier: String, fill: @escaping @Sendable (Database) throws -> Void) async throws {
        let last = try #require(AppDatabase.knownMigrations.last { $0 < identifier }, "no migration before \(identifier)")
        let queue = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(queue, upTo: last)
        try await queue.write(fill)
        try queue.close()
    }
}
