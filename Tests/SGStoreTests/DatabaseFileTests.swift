import Foundation
import GRDB
import Testing
import SGCore
import SGTestSupport
@testable import SGStore

@Suite struct DatabaseFileTests {
    /// Issue 18, finding 8: the file holds password hashes and everyone's leave; it was created readable by all.
    @Test func theDatabaseAndItsLogAreCreatedForTheOwnerOnly() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let database = try AppDatabase.open(path: path.path)
        try await database.write { (db: Database) in try db.execute(sql: "CREATE TABLE IF NOT EXISTS probe (x)") }
        for suffix in ["", "-wal", "-shm"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path.path + suffix)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            #expect(mode & 0o077 == 0, "\(suffix.isEmpty ? "database" : suffix): \(String(mode, radix: 8))")
        }
    }

    /// Issue 18, finding 8: without a limit the write-ahead log kept the size of its largest burst.
    @Test func theWriteAheadLogHasASizeLimit() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let database = try AppDatabase.open(path: path.path)
        let limit = try await database.write { (db: Database) in try Int.fetchOne(db, sql: "PRAGMA journal_size_limit") ?? -1 }
        #expect(limit > 0)
        let readLimit = try await database.read { (db: Database) in try Int.fetchOne(db, sql: "PRAGMA journal_size_limit") ?? -1 }
        #expect(readLimit > 0)
    }
}
