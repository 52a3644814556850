import Foundation
import Hummingbird
import HummingbirdTesting
import SGAPI
import SGLDAP
import SGStore
import Testing

/// GET /v1/health/ready with logins going to a real slapd: ready while it answers, 503 naming the directory once
/// it is down, ready again when it is back.
@Suite("Readiness with LDAP")
struct LDAPReadinessTests {
    @Test("readiness follows the directory")
    func readinessFollowsTheDirectory() async throws {
        try await withDirectoryServer { server in
            let directory = LDAPDirectory(configuration: server.configuration(timeout: 1, connectTimeout: 1), logger: .quiet)
            let app = buildApplication(
                configuration: .init(host: "127.0.0.1", port: 0), services: try LDAPAPITests.services(directory))
            try await app.test(.router) { client in
                #expect(try await client.execute(uri: "/v1/health/ready", method: .get).status == .ok)

                await server.stop()
                // Answers are reused for a second.
                try await Task.sleep(for: .milliseconds(1100))
                let down = try await client.execute(uri: "/v1/health/ready", method: .get)
                #expect(down.status == .serviceUnavailable)
                #expect(down.headers[.contentType] == "application/problem+json")
                let detail = String(buffer: down.body)
                #expect(detail.contains("directory (ldap)"), "\(detail)")
                #expect(!detail.contains("database:"), "\(detail)")
                #expect(try await client.execute(uri: "/v1/health", method: .get).status == .ok)

                try await server.launch()
                try await Task.sleep(for: .milliseconds(1100))
                #expect(try await client.execute(uri: "/v1/health/ready", method: .get).status == .ok)
            }
        }
    }
}
