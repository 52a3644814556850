import Foundation
import SGCore
import SGSQLite

/// One table of the schema as a copy sees it, read from a freshly migrated SQLite database (PostgreSQL's schema has
/// the same tables and columns: `make test` compares them).
struct CopiedTable: Sendable {
    enum Kind: Sendable { case integer, text, blob }

    let name: String
    let columns: [(name: String, kind: Kind)]
    /// A total order for reading in batches: the primary key, or every column when there is none.
    let order: [String]
    /// Whether `order` is the primary key, so that a batch can start after the last key read instead of at an offset.
    let orderIsKey: Bool
    /// An `id INTEGER PRIMARY KEY` whose counter (PostgreSQL's identity, SQLite's AUTOINCREMENT) must continue.
    let hasCountedID: Bool
    /// Declared AUTOINCREMENT on SQLite: its counter is in sqlite_sequence.
    let autoincrement: Bool
    /// The migrations put rows in it (the company, leave types, default calendar, delivery settings): a target
    /// may hold rows there and still count as empty, and the copy replaces them.
    let seeded: Bool

    var quoted: String { Self.quote(name) }

    static func quote(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}

/// Rows copied into one table.
public struct CopiedCount: Sendable, Equatable {
    public let table: String
    public let rows: Int
}

extension AppDatabase {
    /// Rows read from the source and written to the target at a time.
    public static let copyBatchSize = 500

    /// Copies every row of every table of this database into `target`, which must be at the same schema and empty
    /// (no rows beyond what the migrations put there, which the copy replaces): in one transaction on the target,
    /// from one snapshot of this database, values as they are, counters continued after the copy, row counts
    /// checked before the commit. A failure anywhere writes nothing.
    ///
    /// The target's triggers do not run during the copy (the rows are the source's, already derived); foreign keys
    /// are checked, and `checkInvariants()` is for after.
    /// `progress` hears each table's rows copied so far against its total.
    public func copy(
        to target: AppDatabase, batchSize: Int = copyBatchSize,
        progress: @escaping @Sendable (_ table: String, _ copied: Int, _ total: Int) -> Void = { _, _, _ in }
    ) async throws -> [CopiedCount] {
        let tables = try Self.copiedTables()
        return try await target.writing { destination in
            try self.reading { source in
                try Self.requireEmpty(destination, tables)
                let totals = try tables.map { try Self.count(source, $0) }
                let triggers = try Self.suspendChecks(destination)
                for table in tables.reversed() { try destination.execute("DELETE FROM \(table.quoted)") }
                for (table, total) in zip(tables, totals) {
                    try Self.copyRows(of: table, total: total, from: source, to: destination, batchSize: batchSize, progress: progress)
                }
                for trigger in triggers { try destination.execute(trigger) }
                for table in tables where table.hasCountedID { try Self.continueCounter(of: table, from: source, on: destination) }
                for (table, total) in zip(tables, totals) {
                    let copied = try Self.count(destination, table)
                    guard copied == total else {
                        throw SGError.conflict("The copy of \(table.name) has \(copied) rows where the source has \(total): nothing was written.")
                    }
                }
                return zip(tables, totals).map { CopiedCount(table: $0.name, rows: $1) }
            }
        }
    }

    /// The schema's tables, parents before the tables whose foreign keys name them; not the engines' own bookkeeping
    /// (which migrations ran, which rules the triggers were written from), which each side keeps for itself.
    static func copiedTables() throws -> [CopiedTable] {
        let fresh = try AppDatabase.inMemory()
        return try fresh.reading { connection in
            let definitions = try connection.with(
                "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT IN ('grdb_migrations', 'schema_rules') ORDER BY name"
            ) { statement in
                var rows: [(String, String)] = []
                while try statement.step() { rows.append((statement.text(0), statement.text(1))) }
                return rows
            }
            var tables: [String: (table: CopiedTable, parents: Set<String>)] = [:]
            for (name, sql) in definitions {
                let info = try connection.with("SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid") { statement in
                    statement.bind(1, name)
                    var columns: [(name: String, type: String, key: Int)] = []
                    while try statement.step() { columns.append((statement.text(0), statement.text(1).uppercased(), statement.int(2))) }
                    return columns
                }
                let parents = try connection.with("SELECT \"table\" FROM pragma_foreign_key_list(?)") { statement in
                    statement.bind(1, name)
                    var parents: Set<String> = []
                    while try statement.step() { parents.insert(statement.text(0)) }
                    return parents
                }
                let seeded = try connection.with("SELECT EXISTS (SELECT 1 FROM \(CopiedTable.quote(name)))") { statement in
                    _ = try statement.step()
                    return statement.bool(0)
                }
                let key = info.filter { $0.key > 0 }.sorted { $0.key < $1.key }.map(\.name)
                let columns = info.map { column -> (name: String, kind: CopiedTable.Kind) in
                    (column.name, column.type.contains("INT") ? .integer : column.type.contains("BLOB") ? .blob : .text)
                }
                let table = CopiedTable(
                    name: name, columns: columns, order: key.isEmpty ? info.map(\.name) : key, orderIsKey: !key.isEmpty,
                    hasCountedID: key == ["id"] && info.first { $0.name == "id" }?.type == "INTEGER",
                    autoincrement: sql.uppercased().contains("AUTOINCREMENT"), seeded: seeded)
                tables[name] = (table, parents.subtracting([name]))
            }
            var ordered: [CopiedTable] = []
            var placed: Set<String> = []
            while ordered.count < tables.count {
                let ready = tables.keys.sorted().filter { !placed.contains($0) && tables[$0]!.parents.isSubset(of: placed) }
                guard !ready.isEmpty else { preconditionFailure("The schema's foreign keys form a cycle") }
                for name in ready {
                    ordered.append(tables[name]!.table)
                    placed.insert(name)
                }
            }
            return ordered
        }
    }

    /// Refuses a target with rows in a table the migrations leave empty (employees, requests, ...).
    private static func requireEmpty(_ connection: SQLConnection, _ tables: [CopiedTable]) throws {
        let filled = try tables.filter { !$0.seeded }.compactMap { table -> String? in
            let rows = try count(connection, table)
            return rows == 0 ? nil : "\(table.name) (\(rows))"
        }
        guard filled.isEmpty else {
            throw SGError.conflict(
                "The target database is not empty: it has rows in \(filled.joined(separator: ", ")). "
                    + "Copy into a new database; nothing was written.")
        }
    }

    private static func count(_ connection: SQLConnection, _ table: CopiedTable) throws -> Int {
        try connection.with("SELECT COUNT(*) FROM \(table.quoted)") { statement in
            _ = try statement.step()
            return statement.int(0)
        }
    }

    /// Keeps the target's triggers from acting on the copied rows (append-only histories, held days derived a
    /// second time); returns the statements that put them back before the commit. Foreign keys stay checked: the
    /// tables are filled parents first.
    ///
    /// PostgreSQL: the tables' own triggers are disabled inside the transaction (the schema's owner may; a
    /// replica role would need a superuser). SQLite has no switch for triggers: they are dropped inside the
    /// transaction and created again before it commits (SQLite's schema changes are transactional too).
    private static func suspendChecks(_ connection: SQLConnection) throws -> [String] {
        switch connection.dialect {
        case .postgres:
            let tables = try connection.with(
                "SELECT DISTINCT event_object_table FROM information_schema.triggers WHERE trigger_schema = current_schema() ORDER BY 1"
            ) { statement in
                var tables: [String] = []
                while try statement.step() { tables.append(statement.text(0)) }
                return tables
            }
            for table in tables { try connection.execute("ALTER TABLE \(CopiedTable.quote(table)) DISABLE TRIGGER USER") }
            return tables.map { "ALTER TABLE \(CopiedTable.quote($0)) ENABLE TRIGGER USER" }
        case .sqlite:
            try connection.execute("PRAGMA defer_foreign_keys = ON")
            let triggers = try connection.with("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name") { statement in
                var triggers: [(String, String)] = []
                while try statement.step() { triggers.append((statement.text(0), statement.text(1))) }
                return triggers
            }
            for (name, _) in triggers { try connection.execute("DROP TRIGGER \(CopiedTable.quote(name))") }
            return triggers.map(\.1)
        }
    }

    /// The table's rows in batches of `batchSize` (PostgreSQL hands a statement's rows over all at once), each batch
    /// read after the last key of the one before (an offset would read the skipped rows again, batch after batch)
    /// and written by one INSERT of all its rows (one round trip to PostgreSQL, not one a row).
    private static func copyRows(
        of table: CopiedTable, total: Int, from source: SQLConnection, to destination: SQLConnection, batchSize: Int,
        progress: (String, Int, Int) -> Void
    ) throws {
        let names = table.columns.map { CopiedTable.quote($0.name) }
        let keyIndexes = table.order.compactMap { key in table.columns.firstIndex { $0.name == key } }
        let keyList = table.order.map(CopiedTable.quote).joined(separator: ", ")
        let keyPlaceholders = Array(repeating: "?", count: keyIndexes.count).joined(separator: ", ")
        let selectColumns = "SELECT \(names.joined(separator: ", ")) FROM \(table.quoted)"
        let first = "\(selectColumns) ORDER BY \(keyList) LIMIT ?"
        let after = table.orderIsKey
            ? "\(selectColumns) WHERE (\(keyList)) > (\(keyPlaceholders)) ORDER BY \(keyList) LIMIT ?"
            : "\(selectColumns) ORDER BY \(keyList) LIMIT ? OFFSET ?"
        let row = "(" + Array(repeating: "?", count: names.count).joined(separator: ", ") + ")"
        func insert(_ rows: Int) -> String {
            "INSERT INTO \(table.quoted) (\(names.joined(separator: ", "))) VALUES " + Array(repeating: row, count: rows).joined(separator: ", ")
        }
        var copied = 0
        var lastKey: [SQLArgument]?
        progress(table.name, 0, total)
        while true {
            let batch = try source.with(lastKey == nil ? first : after) { statement in
                let keys = table.orderIsKey ? lastKey ?? [] : []
                SQLArgument.bind(keys, to: statement)
                statement.bind(Int32(keys.count + 1), batchSize)
                if lastKey != nil && !table.orderIsKey { statement.bind(2, copied) }
                var rows: [[SQLArgument]] = []
                while try statement.step() {
                    rows.append(table.columns.enumerated().map { index, column in
                        let index = Int32(index)
                        guard !statement.isNull(index) else { return .null }
                        switch column.kind {
                        case .integer: return .integer(statement.int64(index))
                        case .text: return .text(statement.text(index))
                        case .blob: return .blob(statement.blob(index))
                        }
                    })
                }
                return rows
            }
            if !batch.isEmpty {
                try destination.execute(insert(batch.count)) { statement in
                    // A NULL is left unbound: NULL on SQLite, and of the column's type on PostgreSQL.
                    SQLArgument.bind(batch.flatMap { $0 }, to: statement)
                }
            }
            copied += batch.count
            if !batch.isEmpty { progress(table.name, copied, total) }
            if batch.count < batchSize { return }
            lastKey = keyIndexes.map { batch[batch.count - 1][$0] }
        }
    }

    /// The target's counter of `id` continues after the highest id the source used (deleted rows' ids included,
    /// which never come back): PostgreSQL's identity sequence, SQLite's sqlite_sequence for AUTOINCREMENT.
    private static func continueCounter(of table: CopiedTable, from source: SQLConnection, on destination: SQLConnection) throws {
        let used: Int64
        switch source.dialect {
        case .postgres:
            used = try single(source, "SELECT COALESCE(MAX(last_value), 0) FROM pg_sequences WHERE schemaname || '.' || sequencename = pg_get_serial_sequence(?, 'id')", table.quoted)
        case .sqlite:
            used = table.autoincrement ? try single(source, "SELECT COALESCE(MAX(seq), 0) FROM sqlite_sequence WHERE name = ?", table.name) : 0
        }
        let highest = max(used, try single(destination, "SELECT COALESCE(MAX(id), 0) FROM \(table.quoted)"))
        switch destination.dialect {
        case .postgres:
            // No sequence (an id the store gives itself, the company's 1): setval of NULL does nothing. Marked as
            // called, so that pg_sequences shows it as used should this database be copied again.
            try destination.execute("SELECT setval(pg_get_serial_sequence(?, 'id'), ?, ? <> 0)") { statement in
                statement.bind(1, table.quoted)
                statement.bind(2, max(highest, 1))
                statement.bind(3, highest > 0 ? 1 : 0)
            }
        case .sqlite:
            guard table.autoincrement else { return }
            try destination.execute("DELETE FROM sqlite_sequence WHERE name = ?") { $0.bind(1, table.name) }
            guard highest > 0 else { return }
            try destination.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)") { statement in
                statement.bind(1, table.name)
                statement.bind(2, highest)
            }
        }
    }

    private static func single(_ connection: SQLConnection, _ sql: String, _ argument: String? = nil) throws -> Int64 {
        try connection.with(sql) { statement in
            if let argument { statement.bind(1, argument) }
            _ = try statement.step()
            return statement.int64(0)
        }
    }
}
