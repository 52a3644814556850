import CoreMetrics
import Foundation
import GRDB
import SGCore
import SGMigrations
import SGPostgres
import SGSQLite
import Synchronization

/// One concept's store: its reads on a pooled read connection (one snapshot), its writes in a `BEGIN IMMEDIATE`
/// transaction on the write connection, both through the concept's SQL type over that connection.
struct SQLStore<Reading, Writing>: TransactionalStore {
    let database: AppDatabase
    let reading: @Sendable (SQLConnection) -> Reading
    let writing: @Sendable (SQLConnection) -> Writing

    func read<T: Sendable>(_ body: @escaping @Sendable (Reading) throws -> T) async throws -> T {
        try await database.onReadThread { [database, reading] in try database.reading { connection in try body(reading(connection)) } }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Writing) throws -> T) async throws -> T {
        try await database.writing { connection in try body(writing(connection)) }
    }
}

/// A value bound to `execute(sql:_:)` or `column(sql:_:)`, or copied row to row: text (or a text NULL), an integer,
/// a blob, or a NULL left unbound (on PostgreSQL, of whatever type its place in the statement gives it).
public enum SQLArgument: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    case text(String?)
    case integer(Int64)
    case blob(Data)
    case null

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(nilLiteral: ()) { self = .text(nil) }

    static func bind(_ arguments: [SQLArgument], to statement: SQLStatement) {
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            switch argument {
            case .text(let value): statement.bind(index, value)
            case .integer(let value): statement.bind(index, value)
            case .blob(let value): statement.bind(index, blob: value)
            case .null: break
            }
        }
    }
}
