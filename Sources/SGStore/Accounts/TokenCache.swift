import Foundation
import SGCore
import Synchronization

/// The live access tokens a server has found, by digest, kept for every request on every connection: each until it
/// expires or a commit changes its session. A commit names in `view_changes`, in rows marked `token`, the employee of
/// every token it changes or ends (migration 0024: logout, refresh, an ended session, the sweep of expired tokens)
/// and every employee whose own row it changes where a session shows it (0025: username, name, e-mail, role, a
/// deactivation), whichever process made it; the first request after it reads the rows it has not seen and forgets
/// those employees' tokens, as `CommitScopedCache` does with year views from the other rows. So requests, decisions
/// and changes of the company cost a kept token nothing, and ending a session is seen by the very next request.
final class TokenCache: Sendable {
    typealias Found = (session: AuthenticatedSession, expiresAt: Date)

    private struct State {
        /// As `CommitScopedCache.State`: the generation through which every change is applied, and the last row.
        var generation: UInt64?
        var seq: Int64 = 0
        var byDigest: [Key: Found] = [:]
        var byEmployee: [Int64: [Key]] = [:]

        mutating func apply(_ changes: ViewChanges, readAfter after: Int64?, generation: UInt64) -> Int64 {
            if let changed = changes.employees(changedAfter: seq, readAfter: after, tokens: true) {
                for employeeID in changed {
                    for digest in byEmployee.removeValue(forKey: employeeID) ?? [] { byDigest[digest] = nil }
                }
            } else {
                forgetAll()
            }
            seq = max(seq, changes.last)
            self.generation = max(self.generation ?? 0, generation)
            return seq
        }

        mutating func forgetAll() {
            byDigest.removeAll(keepingCapacity: true)
            byEmployee.removeAll(keepingCapacity: true)
        }
    }

    /// A token's digest (SHA-256) as four words: hashed and compared in a few instructions, where `Data` hashes
    /// through its bytes one call at a time.
    private struct Key: Hashable {
        let a, b, c, d: UInt64

        /// Nil for a digest of another length, which is then looked up and not kept.
        init?(_ digest: Data) {
            guard digest.count == 32 else { return nil }
            (a, b, c, d) = digest.withUnsafeBytes { bytes in
                (bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                 bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self), bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            }
        }
    }

    private let state = Mutex(State())
    /// Tokens kept for one employee: past it, their oldest kept is dropped. So the cache keeps every employee's
    /// tokens however large the company (no bound on the whole, which a company larger than it would empty again and
    /// again), and only live tokens, which a session has one of at a time, are ever kept.
    let maximumPerEmployee: Int

    init(maximumPerEmployee: Int = SessionService.maximumSessionsPerEmployee) {
        self.maximumPerEmployee = maximumPerEmployee
    }

    /// How many tokens are kept.
    var count: Int { state.withLock { state in state.byDigest.count } }

    /// The session of the live token with `digest` at `now` on `database` (whose cache this is): the one kept, or
    /// what `lookUp` finds (a read begun after this call), which is then kept. Nil for a token that is unknown, ended
    /// or expired.
    func session(
        for digest: Data, at now: Date, on database: AppDatabase, lookUp: () async throws -> Found?
    ) async throws -> AuthenticatedSession? {
        guard let key = Key(digest), let generation = try await database.checkedCommitGeneration() else {
            guard let found = try await lookUp(), found.expiresAt > now else { return nil }
            return found.session
        }
        var (applied, kept) = state.withLock { state in
            state.generation == generation ? (state.seq, state.byDigest[key]) : (nil, nil)
        }
        if applied == nil {
            let after = state.withLock { state in state.generation == nil ? nil : state.seq }
            let changes = try await database.onReadThread { [database] in try database.viewChanges(after: after) }
            (applied, kept) = state.withLock { state in
                (state.apply(changes, readAfter: after, generation: generation), state.byDigest[key])
            }
        }
        if let kept { return kept.expiresAt > now ? kept.session : nil }
        guard let found = try await lookUp(), found.expiresAt > now else { return nil }
        state.withLock { state in
            // A change applied meanwhile may be one `lookUp` did not see.
            guard state.seq == applied else { return }
            guard state.byDigest.updateValue(found, forKey: key) == nil else { return }
            let employeeID = found.session.employee.id
            state.byEmployee[employeeID, default: []].append(key)
            if state.byEmployee[employeeID]!.count > maximumPerEmployee {
                state.byDigest[state.byEmployee[employeeID]!.removeFirst()] = nil
            }
        }
        return found.session
    }
}
