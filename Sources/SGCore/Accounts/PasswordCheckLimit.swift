import Foundation
import Synchronization

/// Bounds the password checks (bcrypt, an LDAP bind) under way at once, in all and per client address. A check
/// over the bound is refused at once rather than queued, so that a burst of guesses cannot make a colleague's login
/// wait behind it. Refused checks are not judged, so they count as no failure.
public final class PasswordCheckLimit: Sendable {
    public struct Limits: Sendable, Equatable {
        /// Checks under way at once, whoever asks; more answer 503.
        public var total: Int
        /// Checks under way at once for one client address (an IPv6 /64); more answer 429.
        public var perAddress: Int

        /// Twice the processors, at least 4: bcrypt keeps a processor busy, so more in parallel only queue.
        public static let defaultTotal = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)

        public init(total: Int = Limits.defaultTotal, perAddress: Int = 2) {
            self.total = max(1, total)
            self.perAddress = max(1, min(perAddress, self.total))
        }
    }

    private struct State {
        var total = 0
        var perAddress: [String: Int] = [:]
    }

    public let limits: Limits
    private let state = Mutex(State())

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Runs `check` if there is room for it, else throws at once: `SGError.tooManyAttempts` when `address` has
    /// its share under way, `SGError.unavailable` when the server has.
    public func run<T>(address: String?, _ check: () async throws -> T) async throws -> T {
        let key = address.flatMap { $0.isEmpty ? nil : IPAddress.throttleKey($0) }
        try enter(key)
        defer { leave(key) }
        return try await check()
    }

    /// Checks under way now.
    public var inFlight: Int { state.withLock { $0.total } }

    private func enter(_ key: String?) throws {
        let refusal: SGError? = state.withLock { state in
            if let key, state.perAddress[key, default: 0] >= limits.perAddress {
                return .tooManyAttempts(
                    "Too many logins from your address are being checked at once. Try again in a moment.", retryAfterSeconds: 1)
            }
            if state.total >= limits.total {
                return .unavailable(
                    "The server is checking as many passwords as it can right now. Try again in a moment.", retryAfterSeconds: 1)
            }
            state.total += 1
            if let key { state.perAddress[key, default: 0] += 1 }
            return nil
        }
        if let refusal { throw refusal }
    }

    private func leave(_ key: String?) {
        state.withLock { state in
            state.total -= 1
            guard let key, let count = state.perAddress[key] else { return }
            state.perAddress[key] = count > 1 ? count - 1 : nil
        }
    }
}

extension PasswordCheckLimit? {
    /// `run` within the bound when there is one; without one (nil), every check runs at once.
    public func run<T>(address: String?, _ check: () async throws -> T) async throws -> T {
        guard let self else { return try await check() }
        return try await self.run(address: address, check)
    }
}
