import Foundation
import GRDB
import Synchronization
import Testing
import SGCore
import SGTestSupport
@testable import SGStore

/// Writes asked for while the writer is busy are committed together, each still atomic and answered after the commit.
@Suite struct GroupCommitTests {
    @Test func writesQueuedBehindABusyWriterCommitTogetherEachAtomic() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let database = try AppDatabase.open(path: path.path)
        try await database.write { (db: Database) in try db.execute(sql: "CREATE TABLE probe (n INTEGER PRIMARY KEY)") }
        let before = database.batchesCommitted.load(ordering: .relaxed)
        let release = DispatchSemaphore(value: 0)
        let holding = Flag()
        let outcomes = try await withThrowingTaskGroup(of: Int.self) { group in
            // Holds the writer until the others are queued behind it.
            group.addTask {
                try await database.write { (db: Database) in
                    holding.value.store(true, ordering: .releasing)
                    release.wait()
                    try db.execute(sql: "INSERT INTO probe VALUES (0)")
                }
                return 0
            }
            // Bounded like the wait below.
            let holdBy = ContinuousClock.now + .seconds(30)
            while !holding.value.load(ordering: .acquiring) && ContinuousClock.now < holdBy {
                try await Task.sleep(for: .milliseconds(5))
            }
            // Bounded: the queue fills within moments; past 30 s the test fails on the counts below instead.
            let giveUp = ContinuousClock.now + .seconds(30)
            for n in 1...20 {
                group.addTask {
                    do {
                        try await database.write { (db: Database) in
                            try db.execute(sql: "INSERT INTO probe VALUES (?)", arguments: [n])
                            // Every fifth fails after writing: only its own row may go.
                            if n % 5 == 0 { throw SGError.invalid(field: "n", message: "refused") }
                            // A key taken by an earlier unit of the same batch fails this one alone.
                            if n == 7 { try db.execute(sql: "INSERT INTO probe VALUES (1)") }
                        }
                        return n
                    } catch let SGError.invalid(field, _) where field == "n" {
                        return -n
                    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                        return -n
                    }
                }
                // Queued in the order of n: the tasks of a group start in no set order, and unit 7 must come after 1.
                while database.pendingWriteCount < n && ContinuousClock.now < giveUp {
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
            release.signal()
            var all: [Int] = []
            for try await outcome in group { all.append(outcome) }
            return all.sorted()
        }
        let refused = [-20, -15, -10, -7, -5]
        #expect(outcomes == refused + [0] + (1...20).filter { ![5, 7, 10, 15, 20].contains($0) })
        let rows = try await database.read { db in try Int.fetchAll(db, sql: "SELECT n FROM probe ORDER BY n") }
        #expect(rows == [0] + (1...20).filter { ![5, 7, 10, 15, 20].contains($0) })
        // The first alone, then the twenty queued behind it in one commit.
        #expect(database.batchesCommitted.load(ordering: .relaxed) - before == 2)
    }

    /// A unit alone in its transaction runs without a savepoint: when it fails after writing, the whole transaction
    /// is rolled back, its caller hears its own error, and the writer goes on as before.
    @Test func aUnitAloneThatFailsAfterWritingLeavesNothing() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let database = try AppDatabase.open(path: path.path)
        try await database.write { (db: Database) in try db.execute(sql: "CREATE TABLE probe (n INTEGER PRIMARY KEY)") }
        await #expect(throws: SGError.invalid(field: "n", message: "refused")) {
            try await database.write { (db: Database) in
                try db.execute(sql: "INSERT INTO probe VALUES (1)")
                throw SGError.invalid(field: "n", message: "refused")
            }
        }
        await #expect(throws: DatabaseError.self) {
            try await database.write { (db: Database) in
                try db.execute(sql: "INSERT INTO probe VALUES (2)")
                try db.execute(sql: "INSERT INTO probe VALUES (2)")
            }
        }
        let inTransaction = try await database.write { (db: Database) -> Bool in
            try db.execute(sql: "INSERT INTO probe VALUES (3)")
            return db.isInsideTransaction
        }
        #expect(inTransaction)
        let rows = try await database.read { db in try Int.fetchAll(db, sql: "SELECT n FROM probe ORDER BY n") }
        #expect(rows == [3])
    }
}

private final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}
