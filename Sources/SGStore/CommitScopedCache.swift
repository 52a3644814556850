import Foundation
import SGCore
import Synchronization

/// Values computed from reads of the database, each kept until anything commits a change to it: this server,
/// sgadmin or any other process on the file. One call, `value(for:isCurrent:compute:)`, both looks up and checks
/// that nothing has committed since the value was computed.
///
/// Bounded: past `maximumEntries` it starts again empty. On an in-memory database (tests) nothing is kept.
/// Inlinable, so that callers get it specialised for their key and value: it sits on the hottest route.
public final class CommitScopedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    struct State: Sendable {
        @usableFromInline var generation: UInt64 = 0
        @usableFromInline var entries: [Key: Value] = [:]

        @usableFromInline init() {}
    }

    @usableFromInline let database: AppDatabase
    @usableFromInline let state = Mutex(State())
    public let maximumEntries: Int

    init(database: AppDatabase, maximumEntries: Int) {
        self.database = database
        self.maximumEntries = maximumEntries
    }

    /// The value kept for `key` if nothing has committed since it was computed and `isCurrent` still holds for
    /// it (a value may depend on the day, too); otherwise the value `compute` gives, which is then kept.
    /// `compute` must read the database after this call began (it does, when it is the read it caches).
    ///
    /// The check that nothing has committed is the one already made for the current request, if any
    /// (`AppDatabase.withSharedCommitCheck`): every commit before the request began is counted in it.
    @inlinable
    public func value(
        for key: Key, isCurrent: (Value) -> Bool, compute: () async throws -> Value
    ) async throws -> Value {
        guard let generation = try await database.onReadThread({ [database] in try database.commitGeneration() }) else {
            return try await compute()
        }
        let kept = state.withLock { state in state.generation == generation ? state.entries[key] : nil }
        if let kept, isCurrent(kept) { return kept }
        let value = try await compute()
        state.withLock { state in
            if generation > state.generation {
                state.generation = generation
                state.entries.removeAll(keepingCapacity: true)
            }
            guard generation == state.generation else { return }
            if state.entries.count >= maximumEntries { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = value
        }
        return value
    }
}

extension AppDatabase {
    public func makeCache<Key: Hashable & Sendable, Value: Sendable>(
        of: Value.Type, by: Key.Type, maximumEntries: Int = 20_000
    ) -> CommitScopedCache<Key, Value> {
        CommitScopedCache(database: self, maximumEntries: maximumEntries)
    }
}
