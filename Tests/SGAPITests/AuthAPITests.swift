import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// Authentication through the real router on a database file, where tokens are remembered by the read connections.
@Suite struct AuthAPITests {
    @Test func theBearerSchemeIsCaseInsensitiveAndTheTokenTrimmed() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let h = try await APIHarness.make(path: path.path)
        try await h.run { client in
            let token = try await client.login("alice")
            for header in ["Bearer \(token)", "bearer \(token)", "BEARER \(token)", "Bearer  \(token) ", "Bearer \t\(token)"] {
                #expect(try await client.call(.get, "/v1/me", headers: [.authorization: header]).status == .ok, "\(header)")
            }
            for header in ["Bearer", "Bearer ", "Bearerx \(token)", "Basic \(token)", "Bearer \(token)x", "Bearer sg_\(token)", "Bearer \(token.dropLast())"] {
                expectProblem(try await client.call(.get, "/v1/me", headers: [.authorization: header]), .unauthorized, "unauthenticated")
            }
        }
    }

    @Test func aTokenStopsWorkingWhenSgadminDeactivatesItsEmployee() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let h = try await APIHarness.make(path: path.path)
        // What sgadmin opens beside the server: another connection pool on the same file.
        let sgadmin = try TestEngine.open(path: path.path, schema: .requireCurrent)
        try await h.run { client in
            let bob = try await client.login("bob")
            let admin = try await client.login("admin")
            for _ in 0..<5 {
                #expect(try await client.call(.get, "/v1/me", token: bob).status == .ok)
                #expect(try await client.call(.get, "/v1/me/holidays", token: bob).status == .ok)
            }
            _ = try await sgadmin.services().accounts.deactivate(username: "bob")
            expectProblem(try await client.call(.get, "/v1/me", token: bob), .unauthorized, "unauthenticated")
            expectProblem(try await client.call(.get, "/v1/me/holidays", token: bob), .unauthorized, "unauthenticated")
            // Other tokens are unaffected; the admin sees the change too.
            let me = try await client.call(.get, "/v1/me", token: admin)
            #expect(me.status == .ok && me.json["isAdmin"] as? Bool == true)
            // An admin demoted by sgadmin loses admin routes at the next request.
            try await sgadmin.execute(sql: "UPDATE employees SET is_admin = 0 WHERE username = 'admin'")
            expectProblem(try await client.call(.get, "/v1/holidays?status=pending", token: admin), .forbidden, "forbidden")
        }
    }

    /// A proxy configured as "::ffff:127.0.0.1" or "0:0:0:0:0:0:0:1" was compared as text with the peer's
    /// "127.0.0.1" or "::1" and never trusted: every client behind it shared one throttle budget.
    @Test func aTrustedProxyIsRecognisedHoweverItsAddressIsWritten() async throws {
        #expect(IPAddress.canonical("::FFFF:10.0.0.1") == "10.0.0.1")
        #expect(IPAddress.canonical("2001:DB8:0:0:0:0:0:1") == "2001:db8::1")
        #expect(IPAddress.canonical("0:0:0:0:0:0:0:1") == "::1")
        #expect(IPAddress.canonical("010.0.0.1") == nil && IPAddress.canonical("proxy.local") == nil)
        let f = try await Fixture.make()
        for written in ["::ffff:127.0.0.1", "127.0.0.1"] {
            let throttle = LoginThrottle(limits: .init(perUsername: 100, perAddress: 2, window: 120), clock: f.clock)
            let services = Services(
                database: f.database, clock: f.clock, directory: f.localAccounts, throttle: throttle, trustedProxies: [written])
            let app = buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: services)
            try await app.test(.live) { client async throws in
                func login(_ password: String, from address: String) async throws -> HTTPResponse.Status {
                    let body = #"{"username":"alice","password":"\#(password)"}"#
                    var headers: HTTPFields = [.contentType: "application/json"]
                    headers[.init("X-Forwarded-For")!] = address
                    return try await client.execute(uri: "/v1/auth/login", method: .post, headers: headers, body: ByteBuffer(string: body)).status
                }
                #expect(try await login("guess", from: "203.0.113.1") == .unauthorized, "\(written)")
                #expect(try await login("guess", from: "203.0.113.1") == .unauthorized, "\(written)")
                #expect(try await login(Fixture.password, from: "203.0.113.1") == .tooManyRequests, "\(written)")
                // Another client behind the same proxy has its own budget.
                #expect(try await login(Fixture.password, from: "203.0.113.2") == .ok, "\(written)")
            }
        }
    }
}
