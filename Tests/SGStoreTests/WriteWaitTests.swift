import Foundation
import GRDB
import Testing
import SGCore
import SGTestSupport
@testable import SGStore

/// Issue 18, finding 4: with the database locked by another process, each queued write waited a lock time-out of its
/// own after the one before it had waited its own (answers at 5, 10 and 11.6 s).
@Suite struct WriteWaitTests {
    @Test func queuedWritesShareOneBoundOnTheirWait() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let database = try AppDatabase.open(path: path.path)
        try await database.write { (db: Database) in try db.execute(sql: "CREATE TABLE probe (x)") }
        // Another process's long write, as sgadmin or a backup tool might hold it.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: path.path, configuration: configuration)
        try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let started = ContinuousClock.now
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<3 {
                group.addTask {
                    do {
                        try await database.write { (db: Database) in try db.execute(sql: "INSERT INTO probe VALUES (\(index))") }
                        return "written"
                    } catch let SGError.unavailable(_, retry) {
                        return retry > 0 ? "unavailable" : "no retry-after"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            var all: [String] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        let waited = ContinuousClock.now - started
        try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        #expect(outcomes == ["unavailable", "unavailable", "unavailable"])
        // One time-out (5 s) for all of them, with room for a slow machine; before, the third came after 15 s.
        #expect(waited < .seconds(AppDatabase.busyTimeout * 2), "\(waited)")
        // Within one request, every write shares the one bound: the second is refused at once.
        try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let request = ContinuousClock.now
        let refusals = await database.withUnitOfWork { () async -> Int in
            var refused = 0
            for index in 0..<3 {
                do {
                    try await database.write { (db: Database) in try db.execute(sql: "INSERT INTO probe VALUES (\(10 + index))") }
                } catch {
                    refused += 1
                }
            }
            return refused
        }
        let requestWaited = ContinuousClock.now - request
        try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        #expect(refusals == 3)
        #expect(requestWaited < .seconds(AppDatabase.busyTimeout * 2), "\(requestWaited)")
        // The lock gone, writes go through again.
        try await database.write { (db: Database) in try db.execute(sql: "INSERT INTO probe VALUES (9)") }
    }
}
