import Foundation
import Logging
import Hummingbird
import HummingbirdTesting
import SGAPI
import SGCore
import SGLDAP
import SGTestSupport
import SGStore
import Testing

/// Login latency against the local slapd: median and p99 over a few hundred logins. Not an assertion, a
/// measurement: runs only with SG_LDAP_BENCHMARK=1 (scripts/ldap/benchmark.sh) and prints its figures.
@Suite("LDAP login latency", .enabled(if: ProcessInfo.processInfo.environment["SG_LDAP_BENCHMARK"] == "1"))
struct LDAPLatencyBenchmark {
    static let count = Int(ProcessInfo.processInfo.environment["SG_LDAP_BENCHMARK_LOGINS"] ?? "") ?? 500

    static func measure(_ label: String, count: Int = count, _ body: () async throws -> Void) async throws {
        // Warm up: connections, caches.
        for _ in 0..<10 { try await body() }
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let start = ContinuousClock.now
            try await body()
            let elapsed = ContinuousClock.now - start
            samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        samples.sort()
        func percentile(_ p: Double) -> Double { samples[min(samples.count - 1, Int((Double(samples.count) * p).rounded(.up)) - 1)] }
        let line = String(
            format: "%@: N=%d  median %.2f ms  p90 %.2f ms  p99 %.2f ms  max %.2f ms",
            label, samples.count, percentile(0.5), percentile(0.9), percentile(0.99), samples.last ?? 0)
        print("LATENCY \(line)")
    }

    @Test("login latency")
    func latency() async throws {
        try await withDirectoryServer { server in
            var configuration = server.configuration(timeout: 3, connectTimeout: 3)
            configuration.admin = .groupEntry(groupDN: TestDirectoryServer.adminGroup, memberAttribute: .member)
            let directory = LDAPDirectory(configuration: configuration, logger: .quiet)

            try await Self.measure("directory only, right password (search, bind, group search)") {
                _ = try await directory.authenticate(username: "alice", password: "alice-secret-1")
            }
            try await Self.measure("directory only, wrong password") {
                do { _ = try await directory.authenticate(username: "alice", password: "wrong") } catch SGError.unauthenticated {}
            }
            try await Self.measure("directory only, unknown user") {
                do { _ = try await directory.authenticate(username: "nobody", password: "wrong") } catch SGError.unauthenticated {}
            }

            let folder = server.workdir.appendingPathComponent("app")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let database = try AppDatabase.open(path: folder.appendingPathComponent("sgemployee.sqlite").path)
            let services = Services(database: database, directory: directory)
            try await Self.measure("SessionService.login (directory, provision in SQLite, token)") {
                _ = try await services.sessions.login(username: "alice", password: "alice-secret-1")
            }

            let app = buildApplication(configuration: .init(host: "127.0.0.1", port: 0), services: services)
            let body = ByteBuffer(string: #"{"username":"alice","password":"alice-secret-1"}"#)
            try await app.test(.live) { client in
                try await Self.measure("POST /v1/auth/login over HTTP (live server)") {
                    let response = try await client.execute(
                        uri: "/v1/auth/login", method: .post, headers: [.contentType: "application/json"], body: body)
                    guard response.status == .ok else { throw TestSetupError("login failed: \(response.status)") }
                }
            }

            // Eight clients at once: wall time per login as each sees it.
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        for _ in 0..<(Self.count / 8) {
                            _ = try await directory.authenticate(username: "bob", password: "bob-secret-2")
                        }
                    }
                }
                try await group.waitForAll()
            }
            let total = ContinuousClock.now - started
            let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
            print(String(format: "LATENCY 8 concurrent clients: %d logins in %.2f s, %.0f logins/s", Self.count / 8 * 8, seconds,
                         Double(Self.count / 8 * 8) / seconds))
        }
    }
}
