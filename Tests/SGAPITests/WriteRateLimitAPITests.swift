import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// Issue 18, finding 6: a create-and-cancel loop of one employee grew the database by 10.6 MB in 15 s.
@Suite struct WriteRateLimitAPITests {
    @Test func oneEmployeesChangesAreBoundedPerMinuteAndReadsAreNot() async throws {
        let f = try await Fixture.make()
        let services = Services(
            database: f.database, clock: f.clock, directory: f.localAccounts, writeLimit: WriteRateLimit(perMinute: 6, clock: f.clock))
        let app = buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: services)
        try await app.test(.router) { raw in
            let client = APIHarness.Client(client: raw)
            let alice = try await client.login("alice")
            let bob = try await client.login("bob")
            let settings = #"{"notifications":true}"#
            for _ in 0..<6 {
                #expect(try await client.call(.put, "/v1/me/settings", token: alice, json: settings).status == .ok)
            }
            let refused = try await client.call(.put, "/v1/me/settings", token: alice, json: settings)
            expectProblem(refused, .tooManyRequests, "too-many-attempts")
            #expect(refused.headers[.retryAfter] == "10")
            // Reads go on; other employees are not affected.
            #expect(try await client.call(.get, "/v1/me/settings", token: alice).status == .ok)
            #expect(try await client.call(.put, "/v1/me/settings", token: bob, json: settings).status == .ok)
            // The bucket refills over the minute: one change every ten seconds here.
            f.clock.set(f.clock.now().addingTimeInterval(10))
            #expect(try await client.call(.put, "/v1/me/settings", token: alice, json: settings).status == .ok)
            expectProblem(try await client.call(.put, "/v1/me/settings", token: alice, json: settings), .tooManyRequests, "too-many-attempts")
        }
    }
}

extension WriteRateLimitAPITests {
    /// The audit sent a 16 MB settings body; JSON bodies stop at 128 KiB, before any of it is parsed or stored.
    @Test func aHugeSettingsBodyIsRefusedAsTooLarge() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let huge = #"{"notifications":true,"padding":""# + String(repeating: "x", count: 16 * 1024 * 1024) + #""}"#
            expectProblem(try await client.call(.put, "/v1/me/settings", token: alice, json: huge), .contentTooLarge, "payload-too-large")
        }
    }
}
