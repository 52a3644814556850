import Foundation

/// What a change sent with a client's retry key (the HTTP `Idempotency-Key`) answered, kept for a day so that the
/// same change sent again is answered again instead of being made twice. Keys are per employee. The answer is the
/// API's (a status, the headers a replay repeats, the body), but it is kept in the change's own transaction, so the
/// record and the protocols that keep it sit with the store's other protocols here.
public struct IdempotencyRecord: Sendable, Equatable {
    /// How long an answer is kept; an older key is free again.
    public static let lifetime: TimeInterval = 24 * 3600

    public var employeeID: Int64
    public var key: String
    /// Method and path, e.g. `POST /v1/holidays/42/approve`.
    public var route: String
    /// A digest of the route and the body: the same key sent with another one is a key reused.
    public var fingerprint: String
    public var status: Int
    /// The headers a replay repeats (Location, ETag).
    public var headers: [String: String]
    public var body: Data
    public var createdAt: Date

    public init(
        employeeID: Int64, key: String, route: String, fingerprint: String, status: Int, headers: [String: String], body: Data,
        createdAt: Date
    ) {
        self.employeeID = employeeID
        self.key = key
        self.route = route
        self.fingerprint = fingerprint
        self.status = status
        self.headers = headers
        self.body = body
        self.createdAt = createdAt
    }

    /// Whether the answer still stands at `now`.
    public func isCurrent(at now: Date) -> Bool { now.timeIntervalSince(createdAt) < Self.lifetime }
}

/// Keeping answers, inside the transaction of the change they answer: they commit or roll back together.
public protocol IdempotencyRecordWriting {
    /// Keeps `response` and sweeps the answers kept before `expiredBefore`. False, keeping nothing, when its key
    /// already holds a current answer (a concurrent change with the same key committed first).
    func keep(_ response: IdempotencyRecord, expiredBefore: Date) throws -> Bool
}

public protocol IdempotencyRecordReading {
    /// The answer kept under the employee's key, current or not.
    func idempotencyRecord(employeeID: Int64, key: String) throws -> IdempotencyRecord?
}

/// Called by a change inside its transaction once it has written, before the commit, with what it wrote: what it
/// keeps there commits with the change, and an error it throws undoes the change.
public typealias WithinChange<Value: Sendable> = @Sendable (any IdempotencyRecordWriting, Value) throws -> Void
