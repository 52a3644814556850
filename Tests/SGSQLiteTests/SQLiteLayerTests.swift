import Foundation
import GRDBSQLite
import Testing
@testable import SGSQLite

/// A database file in WAL mode with a table `t (id, v)` holding (1, 1) and (2, 1), removed by `cleanUp`.
struct TemporaryDatabase {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sgsqlite-\(UUID().uuidString).sqlite").path

    init(journalMode: String = "wal") throws {
        // SQLite takes an empty file for an empty database.
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot create the file", context: .opening(path: path))
        }
        let setup = try writer()
        try setup.execute("PRAGMA journal_mode = \(journalMode)")
        try setup.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v)")
        try setup.execute("INSERT INTO t (id, v) VALUES (1, 1), (2, 1)")
    }

    func writer(busyTimeout: TimeInterval = 5) throws -> SQLConnection {
        try SQLConnection(path: path, readOnly: false, busyTimeout: busyTimeout)
    }

    func cleanUp() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

enum Counted: ConnectionCacheKey {
    static var initialValue: [String: Int] { [:] }
}

enum Named: ConnectionCacheKey {
    static var initialValue: String? { nil }
}

@Suite struct SQLiteLayerTests {
    @Test func aStatementIsPreparedOnceAndComesBackResetWithoutBindings() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let connection = try database.writer()
        let bound = try connection.with("SELECT ?1") { statement -> Int? in
            statement.bind(1, 42)
            return try statement.step() ? statement.int(0) : nil
        }
        #expect(bound == 42)
        let unbound = try connection.with("SELECT ?1") { statement in try statement.step() && statement.isNull(0) }
        #expect(unbound)
        let runs = try connection.with("SELECT ?1") { statement in
            sqlite3_stmt_status(statement.handle, SQLITE_STMTSTATUS_RUN, 0)
        }
        #expect(runs == 2)
    }

    @Test func leavingARowUnreadDoesNotKeepAnOldSnapshot() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let reader = try SQLConnection(path: database.path, busyTimeout: 5)
        let first = try reader.with("SELECT v FROM t ORDER BY id") { statement in try statement.step() ? statement.int(0) : nil }
        #expect(first == 1)
        try database.writer().execute("UPDATE t SET v = 2")
        let total = try reader.with("SELECT SUM(v) FROM t") { statement in try statement.step() ? statement.int(0) : nil }
        #expect(total == 4)
    }

    @Test func readingKeepsOneSnapshotAndEndsIt() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let reader = try SQLConnection(path: database.path, busyTimeout: 5)
        let writer = try database.writer()
        let sum = "SELECT SUM(v) FROM t"
        let (before, during) = try reader.reading {
            let before = try reader.with(sum) { statement in try statement.step() ? statement.int(0) : nil }
            try writer.execute("UPDATE t SET v = 5")
            return (before, try reader.with(sum) { statement in try statement.step() ? statement.int(0) : nil })
        }
        #expect(before == 2 && during == 2)
        #expect(sqlite3_get_autocommit(reader.handle) != 0)
        #expect(try reader.with(sum) { statement in try statement.step() ? statement.int(0) : nil } == 10)
    }

    @Test func textIsBoundWholeAndEmptyTextIsNotNull() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let connection = try database.writer()
        let text = "a\u{0}b é"
        try connection.execute("INSERT INTO t (id, v) VALUES (3, ?)") { statement in statement.bind(1, text) }
        let (length, stored) = try connection.with("SELECT length(CAST(v AS BLOB)), v FROM t WHERE id = 3") { statement in
            _ = try statement.step()
            return (statement.int(0), statement.text(1))
        }
        #expect(length == text.utf8.count)
        #expect(stored == text)
        let empty = try connection.with("SELECT ?1 IS NULL, length(?1)") { statement in
            statement.bind(1, "")
            _ = try statement.step()
            return (statement.bool(0), statement.int(1))
        }
        #expect(empty == (false, 0))
        let absent = try connection.with("SELECT ?1 IS NULL") { statement in
            statement.bind(1, String?.none)
            _ = try statement.step()
            return statement.bool(0)
        }
        #expect(absent)
    }

    @Test func theCacheLastsUntilAnotherConnectionCommits() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let commits = CommitCounter()
        let reader = try SQLConnection(path: database.path, busyTimeout: 5, commits: commits)
        let cache = try #require(try reader.validatedCache())
        let counted = commits.current
        cache[Counted.self]["a"] = 1
        cache[Named.self] = "kept"
        #expect(try reader.validatedCache() === cache)
        #expect(cache[Counted.self] == ["a": 1] && cache[Named.self] == "kept")
        #expect(commits.current == counted)

        try database.writer().execute("UPDATE t SET v = 3")
        let fresh = try #require(try reader.validatedCache())
        #expect(fresh !== cache)
        #expect(fresh[Counted.self].isEmpty && fresh[Named.self] == nil)
        #expect(commits.current == counted + 1)
        // A read is not a commit.
        _ = try reader.with("SELECT v FROM t") { statement in try statement.step() }
        #expect(try reader.validatedCache() === fresh)
    }

    /// In WAL mode most checks read only the header of the log's index; every commit must still be seen, the one
    /// right after a check, the one after the log was checkpointed and started again, and several in a row.
    @Test func everyCommitIsSeenWhenChecksReadTheLogIndex() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let commits = CommitCounter()
        let reader = try SQLConnection(path: database.path, busyTimeout: 5, commits: commits)
        let writer = try database.writer()
        var cache = try #require(try reader.validatedCache())
        for _ in 0..<5 { #expect(try reader.validatedCache() === cache) }
        for round in 1...4 {
            switch round {
            case 2: _ = try writer.with("PRAGMA wal_checkpoint(TRUNCATE)") { statement in try statement.step() }
            case 3: try writer.execute("BEGIN IMMEDIATE"); try writer.execute("COMMIT")
            default: break
            }
            let counted = commits.current
            try writer.execute("UPDATE t SET v = v + 1")
            let fresh = try #require(try reader.validatedCache())
            #expect(fresh !== cache, "round \(round)")
            #expect(commits.current == counted + 1, "round \(round)")
            for _ in 0..<3 { #expect(try reader.validatedCache() === fresh, "round \(round)") }
            cache = fresh
        }
        // A commit of another process.
        let sqlite3 = Process()
        sqlite3.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite3.arguments = [database.path, "UPDATE t SET v = 0"]
        try sqlite3.run()
        sqlite3.waitUntilExit()
        #expect(sqlite3.terminationStatus == 0)
        #expect(try reader.validatedCache() !== cache)
    }

    @Test func withoutWriteAheadLogEveryCheckReadsTheDataVersion() throws {
        let database = try TemporaryDatabase(journalMode: "delete")
        defer { database.cleanUp() }
        let reader = try SQLConnection(path: database.path, busyTimeout: 5, commits: CommitCounter())
        let cache = try #require(try reader.validatedCache())
        #expect(try reader.validatedCache() === cache)
        try database.writer().execute("UPDATE t SET v = 3")
        #expect(try reader.validatedCache() !== cache)
        #expect(!FileManager.default.fileExists(atPath: database.path + "-shm"))
    }

    @Test func aBorrowedConnectionKeepsNoCache() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let owner = try database.writer()
        #expect(try SQLConnection(borrowing: owner.handle!).validatedCache() == nil)
    }

    @Test func aLockHeldPastTheTimeoutIsBusy() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let holder = try database.writer()
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }
        let waiter = try database.writer(busyTimeout: 0)
        let error = try #require(throws: SQLiteError.self) { try waiter.execute("BEGIN IMMEDIATE") }
        #expect(error.isBusy)
        #expect(error.primaryCode == SQLITE_BUSY)
        #expect(error.sql == "BEGIN IMMEDIATE")
    }

    @Test func otherFailuresSayWhatFailedAndAreNotBusy() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let connection = try database.writer()
        let duplicate = try #require(throws: SQLiteError.self) { try connection.execute("INSERT INTO t (id, v) VALUES (1, 0)") }
        #expect(!duplicate.isBusy)
        // SQLITE_CONSTRAINT_PRIMARYKEY, a macro Swift does not import.
        #expect(duplicate.code == SQLITE_CONSTRAINT | (6 << 8))
        #expect(duplicate.context == .statement(sql: "INSERT INTO t (id, v) VALUES (1, 0)"))
        #expect(duplicate.message.contains("UNIQUE constraint failed"))
        let malformed = try #require(throws: SQLiteError.self) { try connection.execute("SELEC 1") }
        #expect(malformed.sql == "SELEC 1" && !malformed.isBusy)

        let missing = database.path + "-missing/db.sqlite"
        let unopened = try #require(throws: SQLiteError.self) { try SQLConnection(path: missing, busyTimeout: 5) }
        #expect(unopened.context == .opening(path: missing))
        #expect(unopened.sql == nil && !unopened.message.isEmpty)
    }

    @Test func thePoolHandsBackItsIdleConnections() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let pool = ReadConnectionPool(path: database.path, busyTimeout: 5, maximumIdle: 1)
        let first = try pool.withConnection { ObjectIdentifier($0) }
        #expect(try pool.withConnection { ObjectIdentifier($0) } == first)
        let (outer, inner) = try pool.withConnection { outer in
            (ObjectIdentifier(outer), try pool.withConnection { ObjectIdentifier($0) })
        }
        #expect(outer == first && inner != first)
        // Read-only: a pooled connection cannot write.
        #expect(throws: SQLiteError.self) { try pool.withConnection { try $0.execute("UPDATE t SET v = 0") } }
    }

    @Test func checkpointsCopyTheLogAndNeedWAL() throws {
        let database = try TemporaryDatabase()
        defer { database.cleanUp() }
        let writer = try database.writer()
        try writer.execute("PRAGMA wal_autocheckpoint = 0")
        try writer.execute("UPDATE t SET v = 7")
        let checkpoint = try Checkpointer(path: database.path).checkpoint()
        #expect(checkpoint.logPages > 0 && checkpoint.checkpointedPages == checkpoint.logPages)

        let rollback = try TemporaryDatabase(journalMode: "delete")
        defer { rollback.cleanUp() }
        #expect(throws: Checkpointer.NotInWALMode(path: rollback.path, mode: "delete")) { try Checkpointer(path: rollback.path).checkpoint() }
    }
}
