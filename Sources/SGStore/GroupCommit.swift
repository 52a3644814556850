import CoreMetrics
import Foundation
import GRDB
import SGCore
import SGMigrations
import SGPostgres
import SGSQLite
import Synchronization

// The writes of a SQLite database: units of work committed together, one batch at a time on the writer.
extension AppDatabase {
    /// A unit of work that writes: atomic, and acknowledged (this returns) only once it is committed.
    ///
    /// Units asked for while the writer is busy are committed together, in one transaction that takes SQLite's
    /// write lock when it begins (BEGIN IMMEDIATE), so that what each reads cannot be changed by another process
    /// before it commits; the pages they share are written, and the writer handed over, once. Each runs in a
    /// savepoint of its own, in the order asked: one that fails is rolled back alone and its caller hears its error.
    /// A unit alone in its transaction needs no savepoint. SQLite (3.40) walks a savepoint's in-memory journal
    /// (`temp_store`) from its start at the end of every statement, so a unit in a batch pays the square of the
    /// pages it changes: cut a large change into several units (`PeopleService.foldsPerWrite`).
    public func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard grdbWriter != nil else { throw Self.sqliteOnly }
        // What this unit of work reads after its own commit must see it.
        sharedCommitCheck?.forget()
        defer { sharedCommitCheck?.forget() }
        // The time spent queueing behind this process's other writes counts against the lock time-out too, so a
        // queue of writes never waits longer than one time-out.
        let deadline = Self.writeDeadline()
        let asked = ContinuousClock.now
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let unit = PendingWrite(
                deadline: deadline, asked: asked,
                run: { db, alone in
                    do {
                        let value = alone ? try body(db) : try Self.inSavepoint(db) { try body(db) }
                        return ({ continuation.resume(returning: value) }, nil)
                    } catch {
                        let failure = Self.translated(error)
                        return ({ continuation.resume(throwing: failure) }, failure)
                    }
                },
                fail: { error in continuation.resume(throwing: error) })
            if pendingWrites.enqueue(unit) {
                // On a thread of its own, not one of the tasks' few shared threads: when those are all busy (password
                // hashing, say), the writer must still be reached.
                DispatchQueue.global(qos: .userInitiated).async { self.commitPendingWrites() }
            }
        }
    }

    /// Commits what is pending, batch after batch on the writer, until nothing is: one thread at a time does this.
    private func commitPendingWrites() {
        writer.writeWithoutTransaction { db in
            while let batch = self.pendingWrites.takeBatch() { self.commit(batch, db) }
        }
    }

    /// One batch, on the writer: waits for the write lock no longer than the earliest deadline of the batch
    /// (whoever passes theirs is answered and left out, the rest try again), runs every unit in its savepoint,
    /// commits, then answers each caller. A failed BEGIN or COMMIT fails them all: none is acknowledged.
    private func commit(_ batch: [PendingWrite], _ db: Database) {
        let connection = writeConnection.connection(for: db)
        defer { connection.setBusyTimeout(.seconds(Self.busyTimeout)) }
        var waiting = batch
        while true {
            let now = ContinuousClock.now
            let expired = waiting.filter { $0.deadline <= now }
            for unit in expired { unit.fail(Self.lockedTooLong) }
            waiting.removeAll { $0.deadline <= now }
            guard let earliest = waiting.map(\.deadline).min() else { return }
            connection.setBusyTimeout(earliest - now)
            do {
                try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
                break
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                continue
            } catch {
                let failure = Self.translated(error)
                for unit in waiting { unit.fail(failure) }
                return
            }
        }
        let began = ContinuousClock.now
        var answers: [@Sendable () -> Void] = []
        let alone = waiting.count == 1
        for unit in waiting {
            let (answer, failure) = unit.run(db, alone)
            answers.append(answer)
            // What the writer keeps may have been read after changes now undone (`WriterKept`).
            if failure != nil { WriterKept.forget(connection) }
            if alone, failure != nil {
                try? db.rollback()
                answer()
                return
            }
            // Some failures (a full disk, an I/O error) make SQLite roll back the whole transaction, not only the
            // unit's savepoint: then nothing of the batch is written, and everyone hears that unit's failure.
            guard db.isInsideTransaction else {
                WriterKept.forget(connection)
                let failure = failure ?? Self.translated(DatabaseError(resultCode: .SQLITE_ABORT, message: "the transaction was rolled back"))
                for unit in waiting { unit.fail(failure) }
                return
            }
        }
        do {
            try db.cachedStatement(sql: "COMMIT").execute()
        } catch {
            try? db.rollback()
            WriterKept.forget(connection)
            let failure = Self.translated(error)
            for unit in waiting { unit.fail(failure) }
            return
        }
        let committed = ContinuousClock.now
        batchesCommitted.add(1, ordering: .relaxed)
        if let metrics = self.metrics.withLock({ $0 }) {
            for unit in waiting { metrics.record(asked: unit.asked, began: began, committed: committed) }
        }
        for answer in answers { answer() }
    }

    /// Runs `body` in a savepoint: released when it returns, rolled back (and released) when it throws. The three
    /// statements are prepared once per connection (GRDB's `inSavepoint` parses its own for every unit).
    private static func inSavepoint<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.cachedStatement(sql: "SAVEPOINT unit").execute()
        do {
            let value = try body()
            try db.cachedStatement(sql: "RELEASE unit").execute()
            return value
        } catch {
            // Nothing to undo when SQLite has already rolled the whole transaction back (a full disk, say): the
            // caller sees that and fails the batch.
            if db.isInsideTransaction {
                try? db.cachedStatement(sql: "ROLLBACK TO unit").execute()
                try? db.cachedStatement(sql: "RELEASE unit").execute()
            }
            throw error
        }
    }

    /// From now on, every write reports how long it waited for the write lock and how long its transaction took.
    public func reportMetrics(to metrics: DatabaseMetrics) {
        self.metrics.withLock { $0 = metrics }
    }

    /// When a write asked for now must have the lock: `busyTimeout` from now, or sooner within a unit of work
    /// (`withUnitOfWork`).
    static func writeDeadline() -> ContinuousClock.Instant {
        let own = ContinuousClock.now + .seconds(busyTimeout)
        return UnitOfWork.current.map { min($0.writeDeadline, own) } ?? own
    }

}

/// A unit of work waiting for the writer. `run` executes it inside the batch's transaction and returns how to
/// answer its caller once the batch has committed, with its failure if it failed; `fail` answers it instead when
/// the batch could not begin or commit.
struct PendingWrite: Sendable {
    let deadline: ContinuousClock.Instant
    let asked: ContinuousClock.Instant
    /// Runs the unit (`alone`: the only one of its transaction) and gives what to answer its caller, and its failure.
    let run: @Sendable (Database, _ alone: Bool) -> (answer: @Sendable () -> Void, failure: (any Error)?)
    let fail: @Sendable (any Error) -> Void
}

/// The queue of `PendingWrite`s and whether a task is committing them.
final class PendingWrites: Sendable {
    private struct State {
        var units: [PendingWrite] = []
        var committing = false
    }

    private let state = Mutex(State())

    var count: Int { state.withLock { $0.units.count } }

    /// Adds a unit; true when no task is committing, so the caller must start one.
    func enqueue(_ unit: PendingWrite) -> Bool {
        state.withLock { state in
            state.units.append(unit)
            guard !state.committing else { return false }
            state.committing = true
            return true
        }
    }

    /// Everything pending, in the order asked; nil (and no task committing any more) when nothing is.
    func takeBatch() -> [PendingWrite]? {
        state.withLock { state in
            guard !state.units.isEmpty else {
                state.committing = false
                return nil
            }
            defer { state.units.removeAll(keepingCapacity: true) }
            return state.units
        }
    }
}
