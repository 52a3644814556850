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
        let sgadmin = try AppDatabase.open(path: path.path, schema: .requireCurrent)
        try await h.run { client in
            let bob = try await client.login("bob")
            let admin = try await client.login("admin")
            for _ in 0..<5 {
                #expect(try await client.call(.get, "/v1/me", token: bob).status == .ok)
                #expect(try await client.call(.get, "/v1/me/holidays", token: bob).status == .ok)
            }
            _ = try await sgadmin.deactivateEmployee(username: "bob")
            expectProblem(try await client.call(.get, "/v1/me", token: bob), .unauthorized, "unauthenticated")
            expectProblem(try await client.call(.get, "/v1/me/holidays", token: bob), .unauthorized, "unauthenticated")
            // Other tokens are unaffected; the admin sees the change too.
            let me = try await client.call(.get, "/v1/me", token: admin)
            #expect(me.status == .ok && me.json["isAdmin"] as? Bool == true)
            // An admin demoted by sgadmin loses admin routes at the next request.
            try await sgadmin.write { db in try db.execute(sql: "UPDATE employees SET is_admin = 0 WHERE username = 'admin'") }
            expectProblem(try await client.call(.get, "/v1/holidays?status=pending", token: admin), .forbidden, "forbidden")
        }
    }

    @Test func theYearViewFollowsWritesFromEitherSide() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let h = try await APIHarness.make(path: path.path)
        let sgadmin = HolidayService(store: try AppDatabase.open(path: path.path, schema: .requireCurrent), clock: h.fixture.clock)
        try await h.run { client in
            let alice = try await client.login("alice")
            let created = try await client.create(alice, h.fixture.weekday(7), h.fixture.weekday(7))
            let id = try #require(created.json["id"] as? Int)
            var view = try await client.call(.get, "/v1/me/holidays", token: alice)
            #expect((view.json["balance"] as? [String: Any])?["pending"] as? Int == 1)
            try await sgadmin.perform(.approve, on: Int64(id), by: h.fixture.admin.actor)
            view = try await client.call(.get, "/v1/me/holidays", token: alice)
            let balance = try #require(view.json["balance"] as? [String: Any])
            #expect(balance["pending"] as? Int == 0 && balance["approved"] as? Int == 1 && balance["remaining"] as? Int == 22)
            let requests = try #require(view.json["requests"] as? [[String: Any]])
            #expect(requests.map { $0["status"] as? String } == ["approved"])
            #expect(requests.first?["allowedActions"] as? [String] == ["cancel"])
        }
    }
}
