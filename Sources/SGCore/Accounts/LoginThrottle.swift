import Foundation

/// Slows down password guessing: after too many failed logins for one username, or from one client address,
/// within a sliding window, further attempts are refused with `SGError.tooManyAttempts` (429, Retry-After)
/// before the directory is asked at all.
///
/// An attempt is counted when it starts (`reserve`), in the same step as the check, and taken back only if it
/// succeeds or is never judged, so that parallel guesses cannot all pass the check before the first failure is
/// recorded.
///
/// Only wrong-credential failures count; an unreachable directory does not. A successful login clears its
/// username's failures but not its address's, so one valid account cannot be used to reset the address limit.
///
/// Password resets keep a throttle of their own, where every request counts (a reset mails someone) and failed
/// confirmations count per address only.
public actor LoginThrottle {
    public struct Limits: Sendable, Equatable {
        /// Failed logins allowed per username within `window`.
        public var perUsername: Int
        /// Failed logins allowed per client address within `window`.
        public var perAddress: Int
        public var window: TimeInterval

        public init(perUsername: Int = 5, perAddress: Int = 20, window: TimeInterval = 300) {
            self.perUsername = max(1, perUsername)
            self.perAddress = max(1, perAddress)
            self.window = max(1, window)
        }
    }

    public let limits: Limits
    private let clock: any NowProvider
    /// An attempt counted against its keys: a failure, or one still being checked.
    private struct Attempt {
        var time: Date
        /// Which reservation it is; 0 for failures recorded after the fact.
        var id: UInt64
    }

    /// An attempt counted when it began, before its password was checked; see `reserve`.
    public struct Reservation: Sendable {
        let id: UInt64
        /// The keys it is counted against, as `reserve` made them.
        let keys: [String]
        /// Its username's key, cleared when it succeeds.
        let usernameKey: String?
    }

    /// Attempts per key, oldest first, none older than `window`.
    private var failures: [String: [Attempt]] = [:]
    private var lastReservation: UInt64 = 0
    /// Upper bound on remembered keys, so a flood of distinct usernames cannot grow memory without limit.
    private let maximumKeys: Int
    /// What is counted, as the refusal names it: "failed logins".
    private let counted: String

    public init(
        limits: Limits = Limits(), clock: any NowProvider = SystemClock(), maximumKeys: Int = 50_000,
        counting counted: String = "failed logins"
    ) {
        self.limits = limits
        self.clock = clock
        self.maximumKeys = max(2, maximumKeys)
        self.counted = counted
    }

    /// Throws `SGError.tooManyAttempts` when the username or the address has used up its failures. A nil
    /// username checks the address only.
    public func check(username: String?, address: String?) throws {
        try check(keys(username: username, address: address), now: clock.now())
    }

    private func check(_ keys: [(String, Int)], now: Date) throws {
        var wait = 0
        for (key, limit) in keys {
            guard let times = prune(key, now: now), times.count >= limit else { continue }
            let freedAt = times[times.count - limit].time.addingTimeInterval(limits.window)
            wait = max(wait, Int(freedAt.timeIntervalSince(now).rounded(.up)))
        }
        if wait > 0 {
            throw SGError.tooManyAttempts(
                "Too many \(counted). Wait \(wait) second\(wait == 1 ? "" : "s") before trying again.",
                retryAfterSeconds: wait)
        }
    }

    public func recordFailure(username: String?, address: String?) {
        count(Attempt(time: clock.now(), id: 0), keys: keys(username: username, address: address))
    }

    public func recordSuccess(username: String) {
        failures[Self.usernameKey(username)] = nil
    }

    /// Checks like `check` and, in the same step, counts the attempt as a failure until told otherwise: by
    /// `succeeded` (it was right) or `release` (it was never judged). An attempt that fails needs nothing more.
    public func reserve(username: String?, address: String?) throws -> Reservation {
        let budgets = keys(username: username, address: address)
        let now = clock.now()
        try check(budgets, now: now)
        lastReservation += 1
        count(Attempt(time: now, id: lastReservation), keys: budgets)
        // The username's key, when there is one, comes first.
        return Reservation(id: lastReservation, keys: budgets.map(\.0), usernameKey: username == nil ? nil : budgets.first?.0)
    }

    /// The reserved attempt was right: its username's failures are cleared, and it no longer counts against its
    /// address (the address's earlier failures still do).
    public func succeeded(_ reservation: Reservation) {
        if let key = reservation.usernameKey { failures[key] = nil }
        release(reservation)
    }

    /// The reserved attempt was never judged (the directory could not be reached, the server was too busy to
    /// check it): it counts against nothing.
    public func release(_ reservation: Reservation) {
        for key in reservation.keys {
            guard var times = failures[key], let index = times.firstIndex(where: { $0.id == reservation.id }) else { continue }
            times.remove(at: index)
            failures[key] = times.isEmpty ? nil : times
        }
    }

    private func count(_ attempt: Attempt, keys: [(String, Int)]) {
        if failures.count >= maximumKeys { sweep(now: attempt.time) }
        for (key, limit) in keys {
            var times = prune(key, now: attempt.time) ?? []
            times.append(attempt)
            // Only the newest `limit` attempts decide anything.
            if times.count > limit { times.removeFirst(times.count - limit) }
            failures[key] = times
        }
    }

    private func keys(username: String?, address: String?) -> [(String, Int)] {
        var keys = username.map { [(Self.usernameKey($0), limits.perUsername)] } ?? []
        if let address, !address.isEmpty { keys.append(("a:" + IPAddress.throttleKey(address), limits.perAddress)) }
        return keys
    }

    private static func usernameKey(_ username: String) -> String { "u:" + normalizedUsername(username) }

    /// A username as a directory matches it, so that every spelling the directory takes for one account counts
    /// against one budget: compatibility-composed (NFKC: full-width letters, ligatures, the Kelvin sign become
    /// plain letters), case-folded ("ß" as "ss"), without the characters LDAP's string preparation (RFC 4518)
    /// maps to nothing (zero-width spaces and joiners, soft hyphens, ...), white space runs as one space. Otherwise
    /// each spelling would have a budget of its own: "ａｌｉｃｅ" would be five more guesses at alice.
    public static func normalizedUsername(_ username: String) -> String {
        let folded = username.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive], locale: nil)
            .precomposedStringWithCompatibilityMapping
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in folded.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
            } else if !scalar.properties.isDefaultIgnorableCodePoint {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            }
        }
        return String(result)
    }

    private func prune(_ key: String, now: Date) -> [Attempt]? {
        guard var times = failures[key] else { return nil }
        let cutoff = now.addingTimeInterval(-limits.window)
        times.removeAll { $0.time <= cutoff }
        failures[key] = times.isEmpty ? nil : times
        return times.isEmpty ? nil : times
    }

    private func sweep(now: Date) {
        let cutoff = now.addingTimeInterval(-limits.window)
        failures = failures.filter { $0.value.last.map { $0.time > cutoff } ?? false }
        // Still full of live keys: forget the oldest half rather than grow.
        if failures.count >= maximumKeys {
            let oldestFirst = failures.sorted { ($0.value.last?.time ?? .distantPast) < ($1.value.last?.time ?? .distantPast) }
            for (key, _) in oldestFirst.prefix(failures.count / 2) { failures[key] = nil }
        }
    }
}
