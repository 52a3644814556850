import Foundation
import Logging
import SGCore
import SGLDAP
import SGTestSupport
import SGStore
import Testing

/// The directory stopped, hanging or restarted: 503 in time, no crash, and back to normal without a restart.
@Suite("LDAP outages")
struct LDAPOutageTests {
    /// Scheduling slack on a busy machine; the bound checked is the configured budget plus this.
    static let margin = 2.0

    static func isUnavailable(_ error: any Error) -> Bool {
        if case SGError.unavailable(_, let retry) = error { return retry > 0 }
        return false
    }

    /// Runs a login expected to fail with 503 and returns how long it took.
    static func timedUnavailableLogin(_ directory: LDAPDirectory, username: String = "alice", password: String = "alice-secret-1") async -> Double {
        let start = ContinuousClock.now
        await #expect(performing: {
            try await directory.authenticate(username: username, password: password)
        }, throws: isUnavailable)
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    @Test("directory stopped (port closed): 503 within the timeout")
    func stopped() async throws {
        let configuration = LDAPConfiguration(
            url: "ldap://127.0.0.1:\(freePort())", baseDN: TestDirectoryServer.baseDN,
            bindDN: TestDirectoryServer.serviceDN, bindPassword: TestDirectoryServer.servicePassword,
            connectTimeout: 1, timeout: 1)
        let directory = LDAPDirectory(configuration: configuration, logger: .quiet)
        for _ in 0..<3 {
            let elapsed = await Self.timedUnavailableLogin(directory)
            #expect(elapsed < configuration.loginBudget + Self.margin)
        }
    }

    @Test("directory hanging (accepts, never answers): 503 within the timeout")
    func hanging() async throws {
        let hanging = try HangingDirectory()
        defer { hanging.close() }
        let configuration = LDAPConfiguration(
            url: hanging.url, baseDN: TestDirectoryServer.baseDN,
            bindDN: TestDirectoryServer.serviceDN, bindPassword: TestDirectoryServer.servicePassword,
            connectTimeout: 1, timeout: 1)
        let directory = LDAPDirectory(configuration: configuration, logger: .quiet)
        // Several at once, more than the directory has threads: each still answers in time.
        let durations = await withTaskGroup(of: Double.self) { group in
            for _ in 0..<6 { group.addTask { await Self.timedUnavailableLogin(directory) } }
            return await group.reduce(into: [Double]()) { $0.append($1) }
        }
        #expect(durations.count == 6)
        for elapsed in durations { #expect(elapsed < configuration.loginBudget + Self.margin) }
    }

    @Test("direct-bind mode against a hanging directory: 503 within the timeout")
    func hangingDirectBind() async throws {
        let hanging = try HangingDirectory()
        defer { hanging.close() }
        let configuration = LDAPConfiguration(
            url: hanging.url, baseDN: TestDirectoryServer.baseDN,
            mode: .directBind(dnTemplate: "uid={username},ou=people,dc=example,dc=com"), connectTimeout: 1, timeout: 1)
        let elapsed = await Self.timedUnavailableLogin(LDAPDirectory(configuration: configuration, logger: .quiet))
        #expect(elapsed < configuration.loginBudget + Self.margin)
    }

    @Test("directory restarted while the server runs: logins work again, no failed login on the way")
    func restarted() async throws {
        try await withDirectoryServer { server in
            let directory = LDAPDirectory(configuration: server.configuration(timeout: 1, connectTimeout: 1), logger: .quiet)
            _ = try await directory.authenticate(username: "alice", password: "alice-secret-1")
            // The kept connections die with the restart; the next login must not notice.
            try await server.restart()
            let again = try await directory.authenticate(username: "alice", password: "alice-secret-1")
            #expect(again.username == "alice")
            await #expect(throws: SGError.unauthenticated("Wrong username or password.")) {
                try await directory.authenticate(username: "alice", password: "wrong-password")
            }
        }
    }

    @Test("directory down for a while: 503 meanwhile, then logins work again")
    func downThenUp() async throws {
        try await withDirectoryServer { server in
            let configuration = server.configuration(timeout: 1, connectTimeout: 1)
            let directory = LDAPDirectory(configuration: configuration, logger: .quiet)
            _ = try await directory.authenticate(username: "bob", password: "bob-secret-2")
            await server.stop()
            for _ in 0..<2 {
                let elapsed = await Self.timedUnavailableLogin(directory, username: "bob", password: "bob-secret-2")
                #expect(elapsed < configuration.loginBudget + Self.margin)
            }
            try await server.launch()
            let back = try await directory.authenticate(username: "bob", password: "bob-secret-2")
            #expect(back.username == "bob")
        }
    }

    @Test("an outage is not counted as a failed login by the throttle")
    func outageNotThrottled() async throws {
        let configuration = LDAPConfiguration(
            url: "ldap://127.0.0.1:\(freePort())", baseDN: TestDirectoryServer.baseDN, connectTimeout: 1, timeout: 1)
        let throttle = LoginThrottle(limits: .init(perUsername: 2, perAddress: 2, window: 60))
        let sessions = (try AppDatabase.inMemory()).sessions(directory: LDAPDirectory(configuration: configuration, logger: .quiet), throttle: throttle)
        for _ in 0..<4 {
            await #expect(performing: {
                try await sessions.login(username: "alice", password: "alice-secret-1", clientAddress: "192.0.2.1")
            }, throws: Self.isUnavailable)
        }
    }
}
