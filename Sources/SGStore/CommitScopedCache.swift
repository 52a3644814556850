import Foundation
import SGCore
import Synchronization

/// Values computed from reads of the database about one employee (their year view), each kept until a commit changes
/// what it was computed from: this server's, sgadmin's or any other process's. A commit costs the cache only the
/// employees it touched: every change to a table such a value reads adds a row to `view_changes` (migration 0023,
/// by triggers, in the same transaction), naming the employee or NULL for everyone, and the first request after a
/// commit reads the rows it has not seen and forgets those employees' values.
///
/// Bounded per employee (`maximumPerEmployee`), and as a whole only when asked (`maximumEntries`), so that it keeps a
/// value for every employee however large the company: a fixed bound on the whole would empty it again and again.
/// On an in-memory database (tests) nothing is kept. Inlinable, so that callers get it specialised for their key and
/// value: it sits on the hottest route.
public final class CommitScopedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// A kept value. A struct, not a tuple: the runtime looks a tuple type's metadata up at each use in generic code.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let key: Key
        @usableFromInline let value: Value

        @inlinable init(key: Key, value: Value) {
            self.key = key
            self.value = value
        }
    }

    @usableFromInline
    struct State: Sendable {
        /// The commit generation (`AppDatabase.commitGeneration`) through which every change has been applied: a
        /// request that sees this generation needs no read of `view_changes`. Nil before the first read.
        @usableFromInline var generation: UInt64?
        /// The last row of `view_changes` applied.
        @usableFromInline var seq: Int64 = 0
        /// By employee, oldest first (a few each: a scan is as quick as a lookup).
        @usableFromInline var entries: [Int64: [Entry]] = [:]
        @usableFromInline var count = 0

        @usableFromInline init() {}

        /// Applies rows read after `after` while the generation was `generation` (or later); returns the last row
        /// applied, under which values computed from reads begun after this call may be kept.
        @inlinable
        mutating func apply(_ changes: ViewChanges, readAfter after: Int64?, generation: UInt64, anyChangeForgetsAll: Bool) -> Int64 {
            if let changed = changes.employees(changedAfter: seq, readAfter: after, tokens: false),
               !(anyChangeForgetsAll && !changed.isEmpty) {
                for employeeID in changed {
                    if let removed = entries.removeValue(forKey: employeeID) { count -= removed.count }
                }
            } else {
                forgetAll()
            }
            seq = max(seq, changes.last)
            self.generation = max(self.generation ?? 0, generation)
            return seq
        }

        @inlinable
        mutating func forgetAll() {
            entries.removeAll(keepingCapacity: true)
            count = 0
        }

        @inlinable
        func kept(_ key: Key, of employeeID: Int64) -> Value? {
            entries[employeeID]?.first { $0.key == key }?.value
        }

        /// Keeps `value` as the employee's newest, dropping their oldest first if they have `maximumPerEmployee`.
        @inlinable
        mutating func keep(_ value: Value, for key: Key, of employeeID: Int64, maximumPerEmployee: Int) {
            var own = entries.removeValue(forKey: employeeID) ?? []
            if let index = own.firstIndex(where: { $0.key == key }) {
                own.remove(at: index)
            } else {
                count += 1
                if own.count >= maximumPerEmployee {
                    own.removeFirst()
                    count -= 1
                }
            }
            own.append(Entry(key: key, value: value))
            entries[employeeID] = own
        }
    }

    @usableFromInline let database: AppDatabase
    @usableFromInline let state = Mutex(State())
    @usableFromInline let employee: @Sendable (Key) -> Int64
    /// Past this many values it starts again empty; nil: no bound but `maximumPerEmployee`.
    public let maximumEntries: Int?
    /// Values kept for one employee.
    public let maximumPerEmployee: Int
    /// For values that may show anyone's data (a page of everyone's requests): a change to any employee forgets
    /// them all.
    @usableFromInline let anyChangeForgetsAll: Bool

    init(
        database: AppDatabase, maximumEntries: Int?, maximumPerEmployee: Int, anyChangeForgetsAll: Bool,
        employee: @escaping @Sendable (Key) -> Int64
    ) {
        self.database = database
        self.maximumEntries = maximumEntries
        self.maximumPerEmployee = maximumPerEmployee
        self.anyChangeForgetsAll = anyChangeForgetsAll
        self.employee = employee
    }

    /// The value kept for `key` if no commit has changed its employee's data since it was computed and `isCurrent`
    /// still holds for it (a value may depend on the day, too); otherwise the value `compute` gives, which is then
    /// kept. `compute` must read the database after this call began (it does, when it is the read it caches).
    ///
    /// The check that nothing has committed is the one already made for the current request, if any
    /// (`AppDatabase.withUnitOfWork`): every commit before the request began is counted in it.
    @inlinable
    public func value(
        for key: Key, isCurrent: (Value) -> Bool, compute: () async throws -> Value
    ) async throws -> Value {
        guard let generation = try await database.checkedCommitGeneration() else {
            return try await compute()
        }
        let employeeID = employee(key)
        // Through which change the kept values are current, and the value for `key` if there is one.
        var (applied, kept) = state.withLock { state in
            state.generation == generation ? (state.seq, state.kept(key, of: employeeID)) : (nil, nil)
        }
        if applied == nil {
            let after = state.withLock { state in state.generation == nil ? nil : state.seq }
            let changes = try await database.onReadThread { [database] in try database.viewChanges(after: after) }
            (applied, kept) = state.withLock { state in
                let applied = state.apply(changes, readAfter: after, generation: generation, anyChangeForgetsAll: anyChangeForgetsAll)
                return (applied, state.kept(key, of: employeeID))
            }
        }
        if let kept, isCurrent(kept) { return kept }
        let value = try await compute()
        state.withLock { state in
            // A change applied meanwhile may be one `compute` did not see.
            guard state.seq == applied else { return }
            if let maximumEntries, state.count >= maximumEntries { state.forgetAll() }
            state.keep(value, for: key, of: employeeID, maximumPerEmployee: maximumPerEmployee)
        }
        return value
    }
}

/// Rows of `view_changes` after a given one: see `CommitScopedCache`.
public struct ViewChanges: Sendable {
    public struct Row: Sendable {
        public let seq: Int64
        /// Nil: anyone's views.
        public let employeeID: Int64?
        /// An access token of the employee changed or ended (migration 0024), or their own row where a session shows
        /// it (0025): what kept tokens follow, and nothing a view shows.
        public let token: Bool
    }

    public let rows: [Row]
    /// The last row there is, or the one asked after when none follows.
    public let last: Int64
    /// What changed up to `last` is not known, so everything must be forgotten: the first row does not follow the one
    /// asked after (rows were dropped in between, the table being kept short), or more rows follow than one read takes.
    public let unknown: Bool

    /// The employees named by the rows after `seen`, read after `after` (nil: nothing had been read): the rows of
    /// views, or with `tokens` those of access tokens and sessions (marked `token`); nil when everything must be
    /// forgotten (such a row that names no one, rows not known, nothing read before).
    @inlinable
    public func employees(changedAfter seen: Int64, readAfter after: Int64?, tokens: Bool) -> [Int64]? {
        guard after != nil, !unknown else { return nil }
        var changed: [Int64] = []
        for row in rows where row.seq > seen && row.token == tokens {
            guard let employeeID = row.employeeID else { return nil }
            changed.append(employeeID)
        }
        return changed
    }
}

extension AppDatabase {
    /// A cache of values each computed from one employee's data (`employee`), or with `anyChangeForgetsAll`, from
    /// anyone's.
    public func makeCache<Key: Hashable & Sendable, Value: Sendable>(
        of: Value.Type, by: Key.Type, maximumEntries: Int? = nil, maximumPerEmployee: Int = 4, anyChangeForgetsAll: Bool = false,
        employee: @escaping @Sendable (Key) -> Int64
    ) -> CommitScopedCache<Key, Value> {
        CommitScopedCache(
            database: self, maximumEntries: maximumEntries, maximumPerEmployee: maximumPerEmployee,
            anyChangeForgetsAll: anyChangeForgetsAll, employee: employee)
    }

    /// How many rows of `view_changes` one read takes; past that, a cache forgets everything.
    static let viewChangesRead = 500

    /// The rows of `view_changes` after `after`; with nil, only the number of the last row.
    @usableFromInline
    func viewChanges(after: Int64?) throws -> ViewChanges {
        try withReader { connection in
            func lastRow() throws -> Int64 {
                try connection.with("SELECT COALESCE(MAX(seq), 0) FROM view_changes") { statement in
                    _ = try statement.step()
                    return statement.int64(0)
                }
            }
            guard let after else { return ViewChanges(rows: [], last: try lastRow(), unknown: true) }
            let rows = try connection.with("SELECT seq, employee_id, token FROM view_changes WHERE seq > ? ORDER BY seq LIMIT ?") { statement in
                statement.bind(1, after)
                statement.bind(2, Self.viewChangesRead)
                var rows: [ViewChanges.Row] = []
                while try statement.step() {
                    rows.append(ViewChanges.Row(seq: statement.int64(0), employeeID: statement.optionalInt64(1), token: statement.int64(2) != 0))
                }
                return rows
            }
            if rows.count == Self.viewChangesRead || rows.first.map({ $0.seq != after + 1 }) == true {
                return ViewChanges(rows: [], last: try lastRow(), unknown: true)
            }
            return ViewChanges(rows: rows, last: rows.last?.seq ?? after, unknown: false)
        }
    }
}
