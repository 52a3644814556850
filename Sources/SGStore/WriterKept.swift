import SGCore
import SGSQLite

/// What the write connection keeps from one transaction to the next: the company's settings and the active admins,
/// which nearly every write reads and almost none changes.
///
/// A connection that writes has no `validatedCache()` (`data_version` does not move for its own commits), so these
/// are checked against `view_changes` instead, which every commit of any process writes in its own transaction
/// (migration 0023): kept while the rows after the last one seen name no one (NULL: the company, anyone's admin
/// flag, activity, name or team) and, for the admins, none of them. A row missing after the last one seen (the
/// table is kept short) forgets both. A unit of work or batch that fails forgets both too (`forget`): its rows of
/// `view_changes` are rolled back and their numbers given again.
final class WriterKept {
    private var seen: Int64?
    private var company: CompanySettings?
    private var admins: [Employee]?

    private enum Slot: ConnectionCacheKey {
        static var initialValue: WriterKept? { nil }
    }

    /// Rows of `view_changes` read at once; as many or more since the last look forget everything.
    private static let rowsRead = 200

    /// The kept values of a SQLite connection that has no `validatedCache()`, brought up to date; nil on another
    /// engine.
    static func current(_ connection: SQLConnection) throws -> WriterKept? {
        guard connection.externalConnection == nil else { return nil }
        let kept = connection.ownersCache[Slot.self] ?? {
            let kept = WriterKept()
            connection.ownersCache[Slot.self] = kept
            return kept
        }()
        try kept.apply(connection)
        return kept
    }

    /// Forgets what `connection` keeps: after a rollback.
    static func forget(_ connection: SQLConnection) {
        connection.ownersCache[Slot.self] = nil
    }

    func company(_ read: () throws -> CompanySettings) rethrows -> CompanySettings {
        if let company { return company }
        let read = try read()
        company = read
        return read
    }

    func admins(_ read: () throws -> [Employee]) rethrows -> [Employee] {
        if let admins { return admins }
        let read = try read()
        admins = read
        return read
    }

    private func apply(_ connection: SQLConnection) throws {
        guard let seen else {
            self.seen = try Self.lastRow(connection)
            return
        }
        let (last, count, anyone, named) = try connection.with(
            "SELECT seq, employee_id FROM view_changes WHERE seq > ? ORDER BY seq LIMIT ?"
        ) { statement in
            statement.bind(1, seen)
            statement.bind(2, Self.rowsRead)
            var last = seen, count = 0, anyone = false, named: [Int64] = []
            while try statement.step() {
                let seq = statement.int64(0)
                // Rows dropped after the last one seen: what they said is not known.
                if seq != last + 1 { anyone = true }
                last = seq
                count += 1
                if let employeeID = statement.optionalInt64(1) { named.append(employeeID) } else { anyone = true }
            }
            return (last, count, anyone, named)
        }
        if anyone || count == Self.rowsRead {
            company = nil
            admins = nil
            self.seen = count == Self.rowsRead ? try Self.lastRow(connection) : last
            return
        }
        self.seen = last
        if let kept = admins, named.contains(where: { employeeID in kept.contains { $0.id == employeeID } }) { admins = nil }
    }

    private static func lastRow(_ connection: SQLConnection) throws -> Int64 {
        try connection.with("SELECT COALESCE(MAX(seq), 0) FROM view_changes") { statement in
            _ = try statement.step()
            return statement.int64(0)
        }
    }
}
