import Foundation
import Synchronization
import Testing
import SGCore
import SGTestSupport
@testable import SGStore

/// Counts the password checks that reach a directory, and how many ran at once.
final class CheckCounter: Sendable {
    private struct State {
        var calls = 0
        var inFlight = 0
        var mostInFlight = 0
    }

    private let state = Mutex(State())

    var calls: Int { state.withLock { $0.calls } }
    var mostInFlight: Int { state.withLock { $0.mostInFlight } }

    func enter() {
        state.withLock { state in
            state.calls += 1
            state.inFlight += 1
            state.mostInFlight = max(state.mostInFlight, state.inFlight)
        }
    }

    func leave() { state.withLock { $0.inFlight -= 1 } }
}

/// A directory that counts the checks it is asked for, optionally taking `delay` over each.
struct CountingDirectory: EmployeeDirectory {
    let inner: any EmployeeDirectory
    let counter = CheckCounter()
    var delay: Duration = .zero

    var kind: String { inner.kind }
    var provisionsEmployees: Bool { inner.provisionsEmployees }

    func authenticate(username: String, password: String) async throws -> DirectoryAccount {
        counter.enter()
        defer { counter.leave() }
        if delay > .zero { try? await Task.sleep(for: delay) }
        return try await inner.authenticate(username: username, password: password)
    }
}

/// Issue 18, finding 1: the throttle was consulted before the password check and the failure recorded after it,
/// so a burst of parallel guesses was checked in full, and the checks queued without bound.
@Suite struct LoginBurstTests {
    static func outcome(_ work: @Sendable () async throws -> IssuedToken) async -> String {
        do {
            _ = try await work()
            return "ok"
        } catch SGError.unauthenticated {
            return "401"
        } catch SGError.tooManyAttempts {
            return "429"
        } catch SGError.unavailable {
            return "503"
        } catch {
            return "other: \(error)"
        }
    }

    @Test func aBurstOfWrongPasswordsForOneUserIsCheckedOnlyAsOftenAsTheLimitAllows() async throws {
        let f = try await Fixture.make()
        let directory = CountingDirectory(inner: f.localAccounts)
        let throttle = LoginThrottle(limits: .init(perUsername: 5, perAddress: 20, window: 300), clock: f.clock)
        let sessions = f.services.sessions(store: f.database.sessionStore, directory: directory, throttle: throttle)
        let outcomes = await withTaskGroup(of: String.self) { group in
            for index in 0..<300 {
                group.addTask {
                    await Self.outcome {
                        try await sessions.login(username: "alice", password: "guess-\(index)", clientAddress: "203.0.113.7")
                    }
                }
            }
            // A colleague elsewhere logs in during the burst.
            group.addTask {
                await Self.outcome { try await sessions.login(username: "bob", password: Fixture.password, clientAddress: "198.51.100.2") }
            }
            var all: [String] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.filter { $0 == "ok" }.count == 1, "the colleague's login")
        #expect(outcomes.allSatisfy { ["ok", "401", "429", "503"].contains($0) }, "\(Set(outcomes))")
        // bob's check, and no more than five of alice's.
        #expect(directory.counter.calls <= 6, "\(directory.counter.calls) password checks")
        #expect(outcomes.filter { $0 == "401" }.count <= 5)
        // Alice, still throttled, cannot get in even with her password.
        #expect(await Self.outcome { try await sessions.login(username: "alice", password: Fixture.password, clientAddress: "192.0.2.1") } == "429")
    }
}

extension LoginBurstTests {
    @Test func passwordChecksUnderWayAreBoundedAndTheRestRefusedAtOnce() async throws {
        let f = try await Fixture.make()
        // Each check takes a while, as bcrypt at cost 12 or a far directory does.
        let directory = CountingDirectory(inner: f.localAccounts, delay: .milliseconds(50))
        let checks = PasswordCheckLimit(limits: .init(total: 4, perAddress: 2))
        let throttle = LoginThrottle(limits: .init(perUsername: 5, perAddress: 1_000, window: 300), clock: f.clock)
        let sessions = f.services.sessions(store: f.database.sessionStore, directory: directory, throttle: throttle, checks: checks)
        // A spread-out attack: 60 names from 60 addresses at once.
        let spread = await withTaskGroup(of: String.self) { group in
            for index in 0..<60 {
                group.addTask {
                    await Self.outcome {
                        try await sessions.login(username: "user\(index)", password: "guess", clientAddress: "198.51.100.\(index)")
                    }
                }
            }
            var all: [String] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(directory.counter.mostInFlight <= 4, "\(directory.counter.mostInFlight) checks at once")
        #expect(spread.contains("503") && spread.allSatisfy { ["401", "503"].contains($0) }, "\(spread)")
        #expect(checks.inFlight == 0)
        // A refused check was never judged, so it counts as no failure: every name still has its five tries.
        for index in 0..<60 {
            #expect(await Self.outcome {
                try await sessions.login(username: "user\(index)", password: "guess", clientAddress: "198.51.100.\(index)")
            } == "401")
        }

        // One address at once: two checks, the rest told to slow down.
        let single = await withTaskGroup(of: String.self) { group in
            for index in 0..<20 {
                group.addTask {
                    await Self.outcome { try await sessions.login(username: "name\(index)", password: "guess", clientAddress: "203.0.113.50") }
                }
            }
            var all: [String] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(single.contains("429") && single.allSatisfy { ["401", "429"].contains($0) }, "\(single)")
        #expect(single.filter { $0 == "401" }.count >= 1)
    }
}
