import GRDBSQLite

/// A failure reported by SQLite, with what was being done when it came.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
    public enum Context: Sendable, Equatable {
        /// Opening the database file at `path`.
        case opening(path: String)
        /// Preparing or running `sql`.
        case statement(sql: String)
    }

    /// SQLite's extended result code.
    public let code: Int32
    public let message: String
    public let context: Context

    public init(code: Int32, message: String, context: Context) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// The primary result code (SQLITE_BUSY for SQLITE_BUSY_SNAPSHOT, say).
    public var primaryCode: Int32 { code & 0xFF }

    /// Another connection held a lock for longer than the busy timeout: worth trying again later.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// The statement that failed, if a statement did.
    public var sql: String? {
        if case .statement(let sql) = context { return sql }
        return nil
    }

    public var description: String {
        switch context {
        case .opening(let path): "SQLite error \(code) opening \(path): \(message)"
        case .statement(let sql): "SQLite error \(code): \(message) - while executing `\(sql)`"
        }
    }
}
