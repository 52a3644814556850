import Foundation
import Logging
import Hummingbird
import HummingbirdTesting
import SGAPI
import SGCore
import SGLDAP
import SGStore
import Testing

/// POST /v1/auth/login through the real router and a live HTTP server, with slapd behind it.
@Suite("Login API with LDAP")
struct LDAPAPITests {
    struct Token: Decodable {
        struct Employee: Decodable {
            let username: String
            let name: String
            let isAdmin: Bool
        }
        let token: String
        let employee: Employee
    }

    struct ProblemBody: Decodable {
        let type: String
        let status: Int
        let detail: String
    }

    static func services(_ directory: any EmployeeDirectory, throttle: LoginThrottle? = nil) throws -> Services {
        let database = try AppDatabase.inMemory()
        return Services(database: database, directory: directory, throttle: throttle)
    }

    static func login(
        _ client: some TestClientProtocol, _ username: String, _ password: String, forwardedFor: String? = nil
    ) async throws -> TestResponse {
        let body = try JSONEncoder().encode(["username": username, "password": password])
        var headers: HTTPFields = [.contentType: "application/json"]
        if let forwardedFor { headers[.init("X-Forwarded-For")!] = forwardedFor }
        return try await client.execute(uri: "/v1/auth/login", method: .post, headers: headers, body: ByteBuffer(bytes: body))
    }

    static func refresh(_ client: some TestClientProtocol, _ token: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/auth/refresh", method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(bytes: try JSONEncoder().encode(["refreshToken": token])))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
        try JSONDecoder().decode(type, from: Data(response.body.readableBytesView))
    }

    @Test("login provisions the employee from the directory; the token works")
    func loginAndProvision() async throws {
        try await withDirectoryServer { server in
            var configuration = server.configuration()
            configuration.admin = .groupEntry(groupDN: TestDirectoryServer.adminGroup, memberAttribute: .member)
            let services = try Self.services(LDAPDirectory(configuration: configuration, logger: .quiet))
            let app = buildApplication(configuration: .init(host: "127.0.0.1", port: 0), services: services)
            try await app.test(.live) { client in
                let response = try await Self.login(client, "alice", "alice-secret-1")
                #expect(response.status == .ok)
                let token = try Self.decode(Token.self, response)
                #expect(token.employee.username == "alice")
                #expect(token.employee.isAdmin)
                let me = try await client.execute(uri: "/v1/me", method: .get, headers: [.authorization: "Bearer \(token.token)"])
                #expect(me.status == .ok)
            }
            let profile = try #require(try await services.core.accounts.directoryProfile(username: "alice"))
            #expect(profile.distinguishedName == "uid=alice,ou=people,dc=example,dc=com")
            #expect(profile.title == "Engineering Manager")
            #expect(profile.phone == "+34 600 000 001")
        }
    }

    @Test("a session of someone the directory no longer lists ends at its next refresh; an outage ends none")
    func leaversLoseTheirSessionsAtRefresh() async throws {
        struct Session: Decodable {
            let token: String
            let refreshToken: String
        }
        try await withDirectoryServer { server in
            let services = try Self.services(LDAPDirectory(configuration: server.configuration(), logger: .quiet))
            let app = buildApplication(configuration: .init(host: "127.0.0.1", port: 0), services: services)
            try await app.test(.live) { client in
                let alice = try Self.decode(Session.self, try await Self.login(client, "alice", "alice-secret-1"))
                let bob = try Self.decode(Session.self, try await Self.login(client, "bob", "bob-secret-2"))
                let renewed = try await Self.refresh(client, alice.refreshToken)
                #expect(renewed.status == .ok)
                let aliceNow = try Self.decode(Session.self, renewed)

                // Alice leaves the company: the directory drops her entry, and no sync has run yet.
                try await server.modify("dn: uid=alice,ou=people,dc=example,dc=com\nchangetype: delete\n")
                let refused = try await Self.refresh(client, aliceNow.refreshToken)
                #expect(refused.status == .unauthorized)
                #expect(try Self.decode(ProblemBody.self, refused).detail.contains("no longer lists alice"))
                let me = try await client.execute(uri: "/v1/me", method: .get, headers: [.authorization: "Bearer \(aliceNow.token)"])
                #expect(me.status == .unauthorized, "her session ended with its access token")

                // The directory down: it cannot tell, so bob's session goes on.
                await server.stop()
                #expect(try await Self.refresh(client, bob.refreshToken).status == .ok)
            }
        }
    }

    @Test("the directory's title and phone fill the profile, and the API will not edit what the directory holds")
    func directoryOwnedProfileFields() async throws {
        try await withDirectoryServer { server in
            let services = try Self.services(LDAPDirectory(configuration: server.configuration(), logger: .quiet))
            let app = buildApplication(configuration: .init(host: "127.0.0.1", port: 0), services: services)
            try await app.test(.router) { client in
                let token = try Self.decode(Token.self, try await Self.login(client, "alice", "alice-secret-1")).token
                let auth: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "application/json"]
                let me = try await client.execute(uri: "/v1/me", method: .get, headers: auth)
                let profile = try #require(try JSONSerialization.jsonObject(with: Data(me.body.readableBytesView)) as? [String: Any])
                #expect(profile["position"] as? String == "Engineering Manager")
                #expect(profile["phone"] as? String == "+34 600 000 001")
                #expect(profile["editableFields"] as? [String] == ["birthDate", "twitter", "linkedin", "language"])
                for body in [#"{"position":"CEO"}"#, #"{"name":"Eve"}"#, #"{"phone":"+1 555 0100"}"#] {
                    let refused = try await client.execute(uri: "/v1/me", method: .patch, headers: auth, body: ByteBuffer(string: body))
                    #expect(refused.status == .unprocessableContent, "\(body)")
                }
                let allowed = try await client.execute(
                    uri: "/v1/me", method: .patch, headers: auth, body: ByteBuffer(string: #"{"twitter":"@alice","position":"Engineering Manager"}"#))
                #expect(allowed.status == .ok)
            }
            // A later login keeps what the employee edited and the directory does not hold.
            _ = try await services.sessions.login(username: "alice", password: "alice-secret-1")
            let employee = try #require(try await services.core.accounts.employee(username: "alice"))
            let profile = try await services.core.people.profile(employeeID: employee.id)
            #expect(profile.twitter == "alice")  // stored without the @
            #expect(profile.position == "Engineering Manager")
        }
    }

    @Test("a later login refreshes what the directory holds")
    func refresh() async throws {
        try await withDirectoryServer { server in
            let services = try Self.services(LDAPDirectory(configuration: server.configuration(), logger: .quiet))
            _ = try await services.sessions.login(username: "bob", password: "bob-secret-2")
            try await server.modify("""
                dn: uid=bob,ou=people,dc=example,dc=com
                changetype: modify
                replace: mail
                mail: robert.jones@example.com
                -
                replace: givenName
                givenName: Robert
                -
                replace: title
                title: Payroll

                """)
            let again = try await services.sessions.login(username: "bob", password: "bob-secret-2")
            #expect(again.employee.email == "robert.jones@example.com")
            #expect(again.employee.name == "Robert")
            #expect(try await services.core.accounts.directoryProfile(username: "bob")?.title == "Payroll")
            #expect(try await services.core.accounts.employees().count == 1)
        }
    }

    @Test("wrong password and unknown user: the same 401 problem; empty password too")
    func sameAnswer() async throws {
        try await withDirectoryServer { server in
            let app = buildApplication(
                configuration: .init(host: "127.0.0.1", port: 0),
                services: try Self.services(LDAPDirectory(configuration: server.configuration(), logger: .quiet)))
            try await app.test(.router) { client in
                let wrong = try await Self.login(client, "alice", "nope-nope")
                let unknown = try await Self.login(client, "no-such-user", "nope-nope")
                let empty = try await Self.login(client, "alice", " ")
                for response in [wrong, unknown, empty] {
                    #expect(response.status == .unauthorized)
                    #expect(response.headers[.contentType] == "application/problem+json")
                }
                #expect(try Self.decode(ProblemBody.self, wrong).detail == Self.decode(ProblemBody.self, unknown).detail)
                #expect(try Self.decode(ProblemBody.self, wrong).detail == Self.decode(ProblemBody.self, empty).detail)
            }
        }
    }

    @Test("directory down: 503 problem+json with Retry-After; tokens already issued keep working; back after restart")
    func outageThroughAPI() async throws {
        try await withDirectoryServer { server in
            let directory = LDAPDirectory(configuration: server.configuration(timeout: 1, connectTimeout: 1), logger: .quiet)
            let app = buildApplication(configuration: .init(host: "127.0.0.1", port: 0), services: try Self.services(directory))
            try await app.test(.live) { client in
                let first = try Self.decode(Token.self, try await Self.login(client, "alice", "alice-secret-1"))
                await server.stop()
                let down = try await Self.login(client, "bob", "bob-secret-2")
                #expect(down.status == .serviceUnavailable)
                #expect(down.headers[.contentType] == "application/problem+json")
                #expect(Int(down.headers[.retryAfter] ?? "") ?? 0 > 0)
                #expect(try Self.decode(ProblemBody.self, down).type == "urn:sgemployee:problem:unavailable")

                let me = try await client.execute(uri: "/v1/me", method: .get, headers: [.authorization: "Bearer \(first.token)"])
                #expect(me.status == .ok)

                try await server.launch()
                #expect(try await Self.login(client, "bob", "bob-secret-2").status == .ok)
            }
        }
    }

    @Test("repeated failures: 429 with Retry-After, per username and per client address")
    func throttled() async throws {
        try await withDirectoryServer { server in
            let throttle = LoginThrottle(limits: .init(perUsername: 3, perAddress: 5, window: 120))
            let services = try Self.services(LDAPDirectory(configuration: server.configuration(), logger: .quiet), throttle: throttle)
            let app = buildApplication(configuration: .init(host: "127.0.0.1", port: 0), services: services)
            try await app.test(.live) { client in
                for _ in 0..<3 { #expect(try await Self.login(client, "alice", "guess").status == .unauthorized) }
                // Even the right password is refused now, without asking the directory.
                let blocked = try await Self.login(client, "alice", "alice-secret-1")
                #expect(blocked.status == .tooManyRequests)
                #expect(Int(blocked.headers[.retryAfter] ?? "") ?? 0 > 0)
                #expect(try Self.decode(ProblemBody.self, blocked).type == "urn:sgemployee:problem:too-many-attempts")

                // Bob is fine until this address has failed five times in all.
                #expect(try await Self.login(client, "bob", "bob-secret-2").status == .ok)
                for _ in 0..<2 { #expect(try await Self.login(client, "carol", "guess").status == .unauthorized) }
                #expect(try await Self.login(client, "bob", "bob-secret-2").status == .tooManyRequests)
            }
        }
    }

    @Test("behind a trusted proxy the client is read from X-Forwarded-For; otherwise the header is ignored")
    func trustedProxy() async throws {
        try await withDirectoryServer { server in
            let directory = LDAPDirectory(configuration: server.configuration(), logger: .quiet)
            let limits = LoginThrottle.Limits(perUsername: 100, perAddress: 2, window: 120)
            let database = try AppDatabase.inMemory()
            let behindProxy = Services(database: database, directory: directory, throttle: LoginThrottle(limits: limits),
                trustedProxies: ["127.0.0.1"])
            let proxied = buildApplication(configuration: .init(host: "127.0.0.1", port: 0), services: behindProxy)
            try await proxied.test(.live) { client async throws in
                for _ in 0..<2 {
                    #expect(try await Self.login(client, "alice", "guess", forwardedFor: "203.0.113.1").status == .unauthorized)
                }
                #expect(try await Self.login(client, "bob", "bob-secret-2", forwardedFor: "203.0.113.1").status == .tooManyRequests)
                // Another client behind the same proxy; a forged left-most entry changes nothing.
                #expect(try await Self.login(client, "bob", "bob-secret-2", forwardedFor: "203.0.113.2").status == .ok)
                #expect(try await Self.login(client, "bob", "bob-secret-2", forwardedFor: "203.0.113.2, 203.0.113.1").status == .tooManyRequests)
                #expect(try await Self.login(client, "bob", "bob-secret-2", forwardedFor: "203.0.113.1, 203.0.113.3").status == .ok)
            }

            let direct = Services(database: database, directory: directory, throttle: LoginThrottle(limits: limits))
            let app = buildApplication(configuration: .init(host: "127.0.0.1", port: 0), services: direct)
            try await app.test(.live) { client async throws in
                #expect(try await Self.login(client, "alice", "guess", forwardedFor: "203.0.113.7").status == .unauthorized)
                #expect(try await Self.login(client, "alice", "guess", forwardedFor: "203.0.113.8").status == .unauthorized)
                // Both counted against 127.0.0.1, the real peer.
                #expect(try await Self.login(client, "bob", "bob-secret-2", forwardedFor: "203.0.113.9").status == .tooManyRequests)
            }
        }
    }

    @Test("a deactivated employee stays out even though the directory says yes")
    func deactivated() async throws {
        try await withDirectoryServer { server in
            let services = try Self.services(LDAPDirectory(configuration: server.configuration(), logger: .quiet))
            _ = try await services.sessions.login(username: "bob", password: "bob-secret-2")
            _ = try await services.core.accounts.deactivate(username: "bob")
            await #expect(throws: SGError.self) {
                try await services.sessions.login(username: "bob", password: "bob-secret-2")
            }
            #expect(try await services.core.accounts.employee(username: "bob")?.isActive == false)
        }
    }
}
