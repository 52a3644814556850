import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// `GET /v1/me/holidays` is served from rendered bodies while nothing changes: whatever changes, through the
/// API or another process (sgadmin), and when the company's day turns, the next read shows it.
@Suite struct YearViewCacheTests {
    private struct Seen: Equatable {
        var statuses: [String]
        var allowed: [[String]]
        var allowance: Int
        var approved: Int
        var pending: Int
        var remaining: Int
    }

    private func seen(_ reply: APIHarness.Client.Reply) -> Seen {
        let balance = reply.json["balance"] as? [String: Any] ?? [:]
        let requests = reply.json["requests"] as? [[String: Any]] ?? []
        return Seen(
            statuses: requests.map { $0["status"] as? String ?? "?" },
            allowed: requests.map { $0["allowedActions"] as? [String] ?? [] },
            allowance: balance["allowance"] as? Int ?? -1, approved: balance["approved"] as? Int ?? -1,
            pending: balance["pending"] as? Int ?? -1, remaining: balance["remaining"] as? Int ?? -1)
    }

    @Test func theYearViewFollowsEveryChangeFromAnyProcessAndTheTurnOfTheDay() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        var made = try await APIHarness.make(path: path.path)
        // Access tokens that outlast the night: a refresh would be a commit, and nothing may commit below.
        made.sessionLifetimes = SessionLifetimes(access: 12 * 3600)
        let h = made
        // What sgadmin opens beside the server: another connection pool on the same file, the same rules.
        let sgadmin = try TestEngine.open(path: path.path, schema: .requireCurrent).services(clock: h.fixture.clock).holidays
        let admin = Actor(employeeID: nil, name: "root (sgadmin)", isAdmin: true)
        let tomorrow = h.fixture.day(1)
        // 20:00 UTC today (the fixture's clock stands at noon).
        let evening = h.fixture.clock.now().addingTimeInterval(8 * 3600)
        h.fixture.clock.set(evening)
        try await h.run { client in
            let alice = try await client.login("alice")
            let other = try await client.login("bob")
            func view(_ token: String) async throws -> Seen {
                let reply = try await client.call(.get, "/v1/me/holidays", token: token)
                #expect(reply.status == .ok)
                return seen(reply)
            }
            let empty = try await view(alice)
            #expect(empty.statuses.isEmpty && empty.pending == 0)
            #expect(try await view(alice) == empty)
            #expect(try await view(other) == empty)

            // Through the API.
            let created = try await client.create(alice, tomorrow, tomorrow)
            #expect(created.status == .created)
            let id = try #require(created.json["id"] as? Int)
            #expect(try await view(alice) == Seen(
                statuses: ["pending"], allowed: [["cancel"]], allowance: empty.allowance, approved: 0, pending: 1,
                remaining: empty.allowance - 1))
            #expect(try await view(other) == empty)

            // From another process: a decision and an allowance.
            _ = try await sgadmin.perform(.approve, on: Int64(id), by: admin)
            let approved = try await view(alice)
            #expect(approved.statuses == ["approved"] && approved.approved == 1 && approved.pending == 0)
            #expect(approved.remaining == empty.allowance - 1)
            #expect(approved.allowed == [["cancel"]])
            _ = try await sgadmin.setAllowance(employeeID: h.fixture.alice.id, year: tomorrow.year, days: 30, by: admin)
            #expect(try await view(alice).allowance == 30)
            #expect(try await view(alice).remaining == 29)

            // The request's first day comes (20:00 -> 02:00 UTC, the company's zone; nothing is committed in
            // between, the access token lasts 12 hours here): an approved request can no longer be cancelled by its owner.
            h.fixture.clock.set(evening.addingTimeInterval(6 * 3600))
            #expect(try await view(alice).allowed == [[]])
        }
    }

    /// `GET /v1/holidays` pages are kept too, and any change to anyone's data, from any process, forgets them.
    @Test func thePendingListFollowsEveryChangeFromAnyProcess() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let h = try await APIHarness.make(path: path.path)
        let other = try TestEngine.open(path: path.path, schema: .requireCurrent)
        let sgadmin = other.services(clock: h.fixture.clock).holidays
        let root = Actor(employeeID: nil, name: "root (sgadmin)", isAdmin: true)
        let day = h.fixture.weekday(7)
        try await h.run { client in
            let admin = try await client.login("admin")
            let alice = try await client.login("alice")
            func pending() async throws -> [String] {
                let reply = try await client.call(.get, "/v1/holidays?status=pending", token: admin)
                #expect(reply.status == .ok)
                let items = reply.json["items"] as? [[String: Any]] ?? []
                #expect(reply.json["total"] as? Int == items.count)
                return items.map { item in
                    let employee = item["employee"] as? [String: Any] ?? [:]
                    return "\(employee["name"] as? String ?? "?") \(item["startDate"] as? String ?? "?")"
                }
            }
            #expect(try await pending() == [])

            let created = try await client.create(alice, day, day)
            #expect(created.status == .created)
            #expect(try await pending() == ["\(h.fixture.alice.name) \(day)"])
            #expect(try await pending() == ["\(h.fixture.alice.name) \(day)"])

            // From another process: Bob asks, Alice's is approved, Bob is renamed.
            _ = try await sgadmin.createRequest(for: h.fixture.bob.id, start: day, end: day, comment: "", actor: h.fixture.bob.actor)
            let bob = h.fixture.bob.name
            #expect(try await pending() == ["\(h.fixture.alice.name) \(day)", "\(bob) \(day)"])
            _ = try await sgadmin.perform(.approve, on: Int64(try #require(created.json["id"] as? Int)), by: root)
            #expect(try await pending() == ["\(bob) \(day)"])
            try await other.execute(sql: "UPDATE employees SET name = 'Robert' WHERE id = ?", [.integer(h.fixture.bob.id)])
            #expect(try await pending() == ["Robert \(day)"])
        }
    }
}
