import Foundation
import SGCore
import Testing

@Suite("Login throttle")
struct LoginThrottleTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func isThrottled(_ error: any Error, retryAfter expected: Int? = nil) -> Bool {
        guard case SGError.tooManyAttempts(_, let retry) = error else { return false }
        return expected.map { $0 == retry } ?? (retry > 0)
    }

    @Test("a username is throttled after its failures, with Retry-After until the oldest one expires")
    func perUsername() async throws {
        let clock = FixedClock(Self.start)
        let throttle = LoginThrottle(limits: .init(perUsername: 3, perAddress: 100, window: 60), clock: clock)
        for second in 0..<3 {
            clock.set(Self.start.addingTimeInterval(Double(second)))
            try await throttle.check(username: "alice", address: "198.51.100.\(second)")
            await throttle.recordFailure(username: "alice", address: "198.51.100.\(second)")
        }
        clock.set(Self.start.addingTimeInterval(10))
        await #expect(performing: { try await throttle.check(username: "ALICE", address: "203.0.113.9") },
                      throws: { Self.isThrottled($0, retryAfter: 50) })
        // Other usernames are not affected.
        try await throttle.check(username: "bob", address: "203.0.113.9")
        // Once the first failure is older than the window, one more try is allowed.
        clock.set(Self.start.addingTimeInterval(60.5))
        try await throttle.check(username: "alice", address: nil)
    }

    @Test("an address is throttled across usernames")
    func perAddress() async throws {
        let clock = FixedClock(Self.start)
        let throttle = LoginThrottle(limits: .init(perUsername: 100, perAddress: 4, window: 300), clock: clock)
        for index in 0..<4 { await throttle.recordFailure(username: "user\(index)", address: "192.0.2.7") }
        await #expect(performing: { try await throttle.check(username: "someone-else", address: "192.0.2.7") },
                      throws: { Self.isThrottled($0, retryAfter: 300) })
        try await throttle.check(username: "someone-else", address: "192.0.2.8")
        try await throttle.check(username: "someone-else", address: nil)
    }

    @Test("success clears the username's failures but not the address's")
    func successClears() async throws {
        let clock = FixedClock(Self.start)
        let throttle = LoginThrottle(limits: .init(perUsername: 2, perAddress: 3, window: 300), clock: clock)
        await throttle.recordFailure(username: "alice", address: "192.0.2.1")
        await throttle.recordFailure(username: "alice", address: "192.0.2.1")
        await #expect(performing: { try await throttle.check(username: "alice", address: nil) }, throws: { Self.isThrottled($0) })
        await throttle.recordSuccess(username: "alice")
        try await throttle.check(username: "alice", address: nil)
        await throttle.recordFailure(username: "mallory", address: "192.0.2.1")
        await #expect(performing: { try await throttle.check(username: "alice", address: "192.0.2.1") }, throws: { Self.isThrottled($0) })
    }

    @Test("memory stays bounded under a flood of usernames")
    func bounded() async throws {
        let throttle = LoginThrottle(limits: .init(perUsername: 1, perAddress: 1_000_000, window: 300), maximumKeys: 100)
        for index in 0..<1_000 { await throttle.recordFailure(username: "u\(index)", address: nil) }
        // The newest are still remembered.
        await #expect(performing: { try await throttle.check(username: "u999", address: nil) }, throws: { Self.isThrottled($0) })
    }
}

@Suite("Login throttle keys")
struct LoginThrottleKeyTests {
    /// Issue 18, finding 2: a directory matches "ａｌｉｃｅ" (full-width) or "ALİCE"-like spellings as the same
    /// account, so each spelling had a budget of its own.
    @Test("look-alike spellings of a username share one budget")
    func lookAlikes() async throws {
        let clock = FixedClock(LoginThrottleTests.start)
        let spellings = ["ａｌｉｃｅ", "ＡＬＩＣＥ", "Alice", "alice\u{200B}", "ALICE"]
        let throttle = LoginThrottle(limits: .init(perUsername: spellings.count, perAddress: 1_000, window: 300), clock: clock)
        for spelling in spellings { await throttle.recordFailure(username: spelling, address: nil) }
        for spelling in spellings + ["alice", "ａlice"] {
            await #expect("\(spelling)", performing: { try await throttle.check(username: spelling, address: nil) },
                          throws: { LoginThrottleTests.isThrottled($0) })
        }
        // Different names stay apart.
        try await throttle.check(username: "alicia", address: nil)
    }

    @Test("an IPv6 client is counted per /64, as one host can use the whole of it")
    func ipv6Prefix() async throws {
        let clock = FixedClock(LoginThrottleTests.start)
        let throttle = LoginThrottle(limits: .init(perUsername: 100, perAddress: 3, window: 300), clock: clock)
        for host in 1...3 { await throttle.recordFailure(username: "user\(host)", address: "2001:db8:1:2::\(host)") }
        await #expect(performing: { try await throttle.check(username: "other", address: "2001:db8:1:2:ffff::9") },
                      throws: { LoginThrottleTests.isThrottled($0) })
        try await throttle.check(username: "other", address: "2001:db8:1:3::1")
        // IPv4 addresses stay whole.
        for host in 1...3 { await throttle.recordFailure(username: "user\(host)", address: "192.0.2.\(host)") }
        try await throttle.check(username: "other", address: "192.0.2.4")
    }
}
