import Synchronization

/// A slot of `ConnectionCache`: the type of what it holds and what it holds when nothing has been stored yet.
/// Declared by whoever caches (an empty enum is enough), so that two users never share a slot by accident.
public protocol ConnectionCacheKey {
    associatedtype Value
    static var initialValue: Value { get }
}

/// Values read under one `data_version` of one connection (see `SQLConnection.validatedCache()`), one per key type.
public final class ConnectionCache {
    private var slots: [ObjectIdentifier: AnyObject] = [:]

    public init() {}

    public subscript<Key: ConnectionCacheKey>(key: Key.Type) -> Key.Value {
        get { slots[ObjectIdentifier(key)].map { unsafeDowncast($0, to: Slot<Key.Value>.self).value } ?? Key.initialValue }
        set { slot(key).value = newValue }
        // In place: a dictionary in a slot is not copied to add one entry.
        _modify { yield &slot(key).value }
    }

    private func slot<Key: ConnectionCacheKey>(_ key: Key.Type) -> Slot<Key.Value> {
        if let slot = slots[ObjectIdentifier(key)] { return unsafeDowncast(slot, to: Slot<Key.Value>.self) }
        let slot = Slot(Key.initialValue)
        slots[ObjectIdentifier(key)] = slot
        return slot
    }

    private final class Slot<Value> {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
}

/// Commits noticed by the read connections of a pool, from any connection or process: each connection's first
/// `validatedCache()` after a commit advances the count (several may count the same commit; only change matters).
///
/// So once a connection has been validated, every commit before that moment has advanced the count: a value
/// computed from reads that began after the count was read at `n` is current for as long as the count is `n`.
public final class CommitCounter: Sendable {
    private let count = Atomic<UInt64>(0)

    public init() {}

    public func advance() { count.add(1, ordering: .sequentiallyConsistent) }
    public var current: UInt64 { count.load(ordering: .sequentiallyConsistent) }
}
