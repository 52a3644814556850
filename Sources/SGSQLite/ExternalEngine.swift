import Foundation

/// The dialect a connection speaks, for the few statements that cannot be written once for both engines.
public enum SQLDialect: Sendable, Equatable {
    case sqlite
    case postgres
}

/// A database other than SQLite behind `SQLConnection` (PostgreSQL, in SGPostgres): the store's statements run on
/// it unchanged, with `?` and `?N` parameters, the same column accessors and the same per-connection caches.
///
/// One thread uses a connection at a time, as with SQLite; the calls block until the server has answered.
public protocol ExternalSQLConnection: AnyObject {
    var dialect: SQLDialect { get }
    /// The statement for `sql`, prepared once per connection.
    func statement(_ sql: String) throws -> any ExternalSQLStatement
    /// Runs `body` in one read transaction (one snapshot), unless a transaction is already open.
    func reading<T>(_ body: () throws -> T) throws -> T
    /// The id given to the row the last INSERT added on this connection.
    func lastInsertedRowID() throws -> Int64
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { get }
    /// As `SQLConnection.validatedCache()`: what this connection remembers, emptied when anyone has committed since.
    func validatedCache() throws -> ConnectionCache?
}

/// A prepared statement of an `ExternalSQLConnection`, as `SQLStatement` uses it. Parameters are numbered from 1
/// and columns from 0; the values of the current row stay valid until the next step or reset.
public protocol ExternalSQLStatement: AnyObject {
    func reset()
    func step() throws -> Bool
    func bind(_ index: Int32, _ value: Int64?)
    func bind(_ index: Int32, _ value: String?)
    func bind(_ index: Int32, blob: Data)
    func isNull(_ column: Int32) -> Bool
    func int64(_ column: Int32) -> Int64
    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>
    func blob(_ column: Int32) -> Data
    func columnName(_ column: Int32) -> String
}
