import Foundation
import GRDBSQLite

/// A prepared statement of an `SQLConnection`, valid inside `SQLConnection.with`.
///
/// Its small methods are inlinable: they run for every column of every row read, and a call across the module
/// boundary for each would cost more than the work.
public struct SQLStatement {
    /// SQLite's statement; nil on another engine.
    @usableFromInline let handle: OpaquePointer?
    /// Another engine's statement (PostgreSQL); nil on SQLite.
    @usableFromInline let external: (any ExternalSQLStatement)?
    @usableFromInline unowned let connection: SQLConnection

    @usableFromInline
    init(handle: OpaquePointer, connection: SQLConnection) {
        self.handle = handle
        self.external = nil
        self.connection = connection
    }

    @usableFromInline
    init(external: any ExternalSQLStatement, connection: SQLConnection) {
        self.handle = nil
        self.external = external
        self.connection = connection
    }

    /// Back to before the first step, with no bindings.
    @inlinable
    func reset() {
        if let external { return external.reset() }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// True when a row is ready, false when the statement is done.
    @inlinable
    public func step() throws -> Bool {
        if let external { return try external.step() }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw failure(code)
        }
    }

    @usableFromInline
    func failure(_ code: Int32) -> SQLiteError {
        connection.error(code, sql: String(cString: sqlite3_sql(handle)))
    }

    // Binding: parameters are numbered from 1.
    @inlinable
    public func bind(_ index: Int32, _ value: Int64) {
        if let external { return external.bind(index, Optional(value)) }
        sqlite3_bind_int64(handle, index, value)
    }
    @inlinable public func bind(_ index: Int32, _ value: Int) { bind(index, Int64(value)) }
    /// With its length in bytes, so that text is stored whole even if it holds U+0000.
    @inlinable
    public func bind(_ index: Int32, _ value: String) {
        if let external { return external.bind(index, Optional(value)) }
        var value = value
        _ = value.withUTF8 { bytes in
            if let text = bytes.baseAddress, !bytes.isEmpty {
                sqlite3_bind_text(handle, index, UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self), Int32(bytes.count), sqliteTransient)
            } else {
                // A NULL pointer would bind SQL NULL instead of ''.
                sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
            }
        }
    }
    @inlinable
    public func bind(_ index: Int32, _ value: String?) {
        if let external { return external.bind(index, value) }
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }
    @inlinable
    public func bind(_ index: Int32, _ value: Int64?) {
        if let external { return external.bind(index, value) }
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }
    @inlinable
    public func bind(_ index: Int32, blob: Data) {
        if let external { return external.bind(index, blob: blob) }
        _ = blob.withUnsafeBytes { bytes in
            sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
        }
    }

    // Reading the current row: columns are numbered from 0.
    @inlinable
    public func isNull(_ column: Int32) -> Bool {
        if let external { return external.isNull(column) }
        return sqlite3_column_type(handle, column) == SQLITE_NULL
    }
    @inlinable
    public func int64(_ column: Int32) -> Int64 {
        if let external { return external.int64(column) }
        return sqlite3_column_int64(handle, column)
    }
    @inlinable public func int(_ column: Int32) -> Int { Int(int64(column)) }
    @inlinable public func bool(_ column: Int32) -> Bool { int64(column) != 0 }
    @inlinable public func optionalInt64(_ column: Int32) -> Int64? { isNull(column) ? nil : int64(column) }

    /// The column's UTF-8 bytes, valid until the next step or reset.
    @inlinable
    public func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8> {
        if let external { return external.bytes(column) }
        guard let text = sqlite3_column_text(handle, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column)))
    }

    @inlinable public func text(_ column: Int32) -> String { String(decoding: bytes(column), as: UTF8.self) }

    public func blob(_ column: Int32) -> Data {
        if let external { return external.blob(column) }
        guard let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }
    @inlinable public func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }

    /// The column's name as the statement gives it, for messages.
    public func columnName(_ column: Int32) -> String {
        if let external { return external.columnName(column) }
        return sqlite3_column_name(handle, column).map { String(cString: $0) } ?? "column \(column)"
    }
}

/// SQLITE_TRANSIENT: SQLite copies the bound value before the call returns.
@inlinable
var sqliteTransient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }
