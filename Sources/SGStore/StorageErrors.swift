import CoreMetrics
import Foundation
import GRDB
import SGCore
import SGMigrations
import SGPostgres
import SGSQLite
import Synchronization

// What the engines throw, as the callers of the store know it.
extension AppDatabase {
    static func translatingErrors<T>(_ work: () throws -> T) throws -> T {
        do { return try work() } catch { throw translated(error) }
    }

    static func translatingErrors<T>(_ work: () async throws -> T) async throws -> T {
        do { return try await work() } catch { throw translated(error) }
    }

    /// SQLite's failures as callers of the store know them. Another process held the write lock for longer than
    /// the busy timeout: say so instead of failing obscurely. Other failures of a statement are GRDB's
    /// `DatabaseError`, whichever layer ran it.
    static func translated(_ error: any Error) -> any Error {
        switch error {
        case let error as SQLiteError:
            switch error.context {
            case .opening(let path):
                return SGError.unavailable("The database at \(path) cannot be opened for reading: \(error.message).", retryAfterSeconds: 1)
            case .statement(let sql):
                if error.isBusy { return lockedTooLong }
                if let failure = storageFailure(ResultCode(rawValue: error.code)) { return failure }
                return DatabaseError(resultCode: ResultCode(rawValue: error.code), message: error.message, sql: sql)
            }
        case let error as DatabaseError:
            if error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED { return lockedTooLong }
            if let failure = storageFailure(error.extendedResultCode) { return failure }
            return error
        case let error as PostgresFailure:
            if error.isConnectionLost {
                return SGError.unavailable("The database server cannot be reached (\(error.message)). Try again in a moment.", retryAfterSeconds: 1)
            }
            if error.isTimeout { return lockedTooLong }
            // 53100: disk full; 25006: a read-only transaction (a standby, or default_transaction_read_only).
            if error.sqlState == "53100" { return storageFailure(.SQLITE_FULL)! }
            if error.sqlState == "25006" { return storageFailure(.SQLITE_READONLY)! }
            return error
        case is PostgresPoolTimeout:
            return SGError.unavailable("Every database connection stayed busy. Try again in a moment.", retryAfterSeconds: 1)
        case let error as PostgresUnreachable:
            return SGError.unavailable(error.description, retryAfterSeconds: 1)
        case let error as Checkpointer.NotInWALMode:
            return SGError.conflict("The database at \(error.path) is not in WAL mode (\(error.mode)).")
        default:
            return error
        }
    }

    /// The disk or the file refusing work, said in words: the server answers 503 (it is the host that needs
    /// attention, and the client may try again later) and sgadmin prints the sentence, rather than a bare
    /// "SQLite error 13". Nil for other failures.
    static func storageFailure(_ code: ResultCode) -> SGError? {
        switch code.primaryResultCode {
        case .SQLITE_FULL:
            .unavailable(
                "The disk holding the database is full, so nothing can be saved; reading still works. "
                    + "Free some space on the server.", retryAfterSeconds: storageRetryAfter)
        case .SQLITE_READONLY:
            .unavailable(
                "The database is read-only (its file, its folder or its disk cannot be written), so nothing can be saved; "
                    + "reading still works. Make it writable for the server's user.", retryAfterSeconds: storageRetryAfter)
        case .SQLITE_IOERR:
            .unavailable(
                "The disk failed to read or write the database (an I/O error). Check the server's disk and its log.",
                retryAfterSeconds: storageRetryAfter)
        case .SQLITE_CANTOPEN:
            .unavailable(
                "The database file or its write-ahead log cannot be opened: check that the folder exists and that the "
                    + "server's user may write there.", retryAfterSeconds: storageRetryAfter)
        default:
            nil
        }
    }

    /// Seconds a client is asked to wait when the disk refuses work: someone has to act first.
    static let storageRetryAfter = 30

    /// What a caller hears when another process held the write lock past `busyTimeout`.
    static let lockedTooLong = SGError.unavailable(
        "The database stayed locked by other writers for \(Int(busyTimeout)) s. Try again in a moment.", retryAfterSeconds: 1)
}
