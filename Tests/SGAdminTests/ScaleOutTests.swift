import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SGCore
import SGPostgres
import SGStore
import SGTestSupport
import Testing

/// Two built sgserver processes on one PostgreSQL database, as behind a load balancer: the guarantees hold whichever
/// server a request reaches. Needs the test cluster (`make test` starts it).
@Suite(.serialized) struct ScaleOutTests {
    /// A company on a new PostgreSQL database: admin and alice (password `Fixture.password`), alice with `days`
    /// days of 2027 and nothing taken.
    static func company(aliceDays days: Int) async throws -> (endpoint: PostgresEndpoint, alice: Employee) {
        let endpoint = try PostgresTestCluster.shared.newDatabase()
        let database = try AppDatabase.open(postgres: endpoint)
        defer { database.closeConnections() }
        let fixture = try await Fixture.make(on: database)
        try await fixture.services.holidays.setAllowance(
            employeeID: fixture.alice.id, year: 2027, days: days, by: fixture.admin.actor)
        return (endpoint, fixture.alice)
    }

    /// The URL of `endpoint` for SG_DATABASE (the password comes from the tests' PGPASSFILE).
    static func url(_ endpoint: PostgresEndpoint) -> String {
        "postgres://\(endpoint.username)@\(endpoint.host):\(endpoint.port)/\(endpoint.database)?sslmode=disable"
    }

    /// A running sgserver on the database.
    final class Server: @unchecked Sendable {
        let port = freePort()
        let process = Process()
        let base: String

        init(_ endpoint: PostgresEndpoint) throws {
            base = "http://127.0.0.1:\(port)"
            process.executableURL = builtProduct("sgserver")
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SG_") }
            environment["SG_DATABASE"] = ScaleOutTests.url(endpoint)
            environment["SG_PORT"] = String(port)
            environment["SG_LOG_LEVEL"] = "error"
            environment["SG_WRITES_PER_MINUTE"] = "10000"
            process.environment = environment
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let started = Date()
            while !canConnect(port: port), process.isRunning, Date().timeIntervalSince(started) < 30 { usleep(50_000) }
            guard canConnect(port: port) else {
                stop()
                throw TestSetupError("sgserver did not start on PostgreSQL (port \(port))")
            }
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }

        func call(_ method: String, _ path: String, token: String? = nil, json: String? = nil) async throws -> (status: Int, body: [String: Any]) {
            var request = URLRequest(url: URL(string: base + path)!)
            request.httpMethod = method
            request.timeoutInterval = 30
            if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
            if let json {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(json.utf8)
            }
            let (data, response) = try await URLSession.shared.data(for: request)
            let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
        }

        func login(_ username: String) async throws -> String {
            let (status, body) = try await call(
                "POST", "/v1/auth/login", json: #"{"username":"\#(username)","password":"\#(Fixture.password)"}"#)
            guard status == 200, let token = body["token"] as? String else { throw TestSetupError("login of \(username): \(status) \(body)") }
            return token
        }
    }

    @Test func racingRequestsForTheLastDaysNeverExceedTheAllowanceWhicheverServerTheyReach() async throws {
        let (endpoint, _) = try await Self.company(aliceDays: 2)
        let servers = [try Server(endpoint), try Server(endpoint)]
        defer { servers.forEach { $0.stop() } }
        let tokens = [try await servers[0].login("alice"), try await servers[1].login("alice")]
        // Ten one-day requests on ten different weekdays of 2027, half to each server, all at once.
        let days = ["2027-06-07", "2027-06-08", "2027-06-09", "2027-06-10", "2027-06-11",
                    "2027-06-14", "2027-06-15", "2027-06-16", "2027-06-17", "2027-06-18"]
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, day) in days.enumerated() {
                group.addTask {
                    try await servers[index % 2].call(
                        "POST", "/v1/me/holidays", token: tokens[index % 2], json: #"{"startDate":"\#(day)","endDate":"\#(day)"}"#
                    ).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 201 }.count == 2, "\(statuses.sorted())")
        #expect(statuses.filter { $0 != 201 }.allSatisfy { $0 == 409 || $0 == 422 }, "\(statuses.sorted())")
        let (status, view) = try await servers[1].call("GET", "/v1/me/holidays?year=2027", token: tokens[1])
        #expect(status == 200)
        let balance = view["balance"] as? [String: Any]
        #expect((balance?["remaining"] as? Double) == 0, "\(String(describing: balance))")
        #expect((view["requests"] as? [Any])?.count == 2)
    }

    @Test func twoServersApprovingOneRequestMoveItOnce() async throws {
        let (endpoint, _) = try await Self.company(aliceDays: 20)
        let servers = [try Server(endpoint), try Server(endpoint)]
        defer { servers.forEach { $0.stop() } }
        let alice = try await servers[0].login("alice")
        let admins = [try await servers[0].login("admin"), try await servers[1].login("admin")]
        for round in 0..<5 {
            let day = "2027-07-\(String(format: "%02d", 5 + round))"
            let (created, request) = try await servers[0].call(
                "POST", "/v1/me/holidays", token: alice, json: #"{"startDate":"\#(day)","endDate":"\#(day)"}"#)
            #expect(created == 201)
            let id = request["id"] as? Int ?? 0
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<4 {
                    group.addTask { try await servers[index % 2].call("POST", "/v1/holidays/\(id)/approve", token: admins[index % 2]).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 != 200 }.allSatisfy { $0 == 409 }, "\(statuses)")
            let (_, shown) = try await servers[1].call("GET", "/v1/holidays/\(id)", token: admins[1])
            let moves = (shown["history"] as? [[String: Any]] ?? []).filter { ($0["to"] as? String) == "approved" }
            #expect(moves.count == 1, "\(shown)")
        }
    }

    @Test func aChangeOnOneServerIsSeenOnTheOthersNextRequest() async throws {
        let (endpoint, _) = try await Self.company(aliceDays: 20)
        let servers = [try Server(endpoint), try Server(endpoint)]
        defer { servers.forEach { $0.stop() } }
        let tokens = [try await servers[0].login("alice"), try await servers[1].login("alice")]
        // The year view on B is cached between commits; each request made on A must show in B's next answer.
        for round in 0..<10 {
            let (status, view) = try await servers[1].call("GET", "/v1/me/holidays?year=2027", token: tokens[1])
            #expect(status == 200)
            #expect((view["requests"] as? [Any])?.count == round)
            let day = "2027-09-\(String(format: "%02d", [6, 7, 8, 9, 10, 13, 14, 15, 16, 17][round]))"
            let (created, _) = try await servers[0].call(
                "POST", "/v1/me/holidays", token: tokens[0], json: #"{"startDate":"\#(day)","endDate":"\#(day)"}"#)
            #expect(created == 201)
        }
        let (_, view) = try await servers[1].call("GET", "/v1/me/holidays?year=2027", token: tokens[1])
        #expect((view["requests"] as? [Any])?.count == 10)
    }

    @Test func aServerOutlivesItsDatabaseConnectionsEnding() async throws {
        let (endpoint, _) = try await Self.company(aliceDays: 20)
        let server = try Server(endpoint)
        defer { server.stop() }
        let token = try await server.login("alice")
        #expect(try await server.call("GET", "/v1/me", token: token).status == 200)
        // What a restart of PostgreSQL does to the server's connections (the pool and the listener).
        let admin = try PostgresPool(endpoint: endpoint)
        defer { admin.shutdown() }
        try admin.withConnection(until: .now + .seconds(10)) { connection, _ in
            try connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
        }
        // A request that meets an ended connection is answered 503 (try again); within a few, the server is back.
        var statuses: [Int] = []
        for _ in 0..<10 {
            let status = try await server.call("GET", "/v1/me/holidays?year=2027", token: token).status
            statuses.append(status)
            if status == 200 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(statuses.last == 200, "\(statuses)")
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 503 }, "\(statuses)")
        #expect(server.process.isRunning)
    }

    @Test func twoProcessesClaimingTheOutboxNeverClaimOneMessageTwice() async throws {
        let (endpoint, _) = try await Self.company(aliceDays: 20)
        // Two pools on one database: two servers' delivery workers.
        let first = try AppDatabase.open(postgres: endpoint, schema: .requireCurrent)
        let second = try AppDatabase.open(postgres: endpoint, schema: .requireCurrent)
        defer {
            first.closeConnections()
            second.closeConnections()
        }
        let services = first.services(clock: FixedClock(today: Fixture.today))
        try await services.delivery.announce(DeliveryConfiguration(emailEnabled: true, publicURL: "https://hr.example.com"))
        let admin = try #require(try await services.accounts.employee(username: "admin"))
        // One e-mail per active employee with an address, for each of ten notices.
        for index in 0..<10 {
            _ = try await services.notices.post(NoticeDraft(title: "Notice \(index)", body: "Body"), by: admin.actor)
        }
        let queued = try await services.delivery.counts()[.pending] ?? 0
        #expect(queued >= 20)
        let workers = [first.services(clock: FixedClock(today: Fixture.today)).delivery, second.services(clock: FixedClock(today: Fixture.today)).delivery]
        let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
            for index in 0..<8 {
                group.addTask {
                    var ids: [Int64] = []
                    while true {
                        let batch = try await workers[index % 2].claim(owner: "worker-\(index)", limit: 3)
                        if batch.isEmpty { return ids }
                        ids += batch.map(\.id)
                    }
                }
            }
            return try await group.reduce(into: [Int64]()) { $0 += $1 }
        }
        #expect(claimed.count == queued)
        #expect(Set(claimed).count == claimed.count)
    }

    @Test func everyConnectionBusyPastTheWaitIsAnsweredUnavailable() async throws {
        var endpoint = try PostgresTestCluster.shared.newDatabase()
        endpoint.poolSize = 1
        endpoint.acquireTimeout = .milliseconds(200)
        let database = try AppDatabase.open(postgres: endpoint)
        defer { database.closeConnections() }
        // A write that keeps the only connection for two seconds.
        let held = Task.detached { try await database.execute(sql: "SELECT pg_sleep(2)") }
        try await Task.sleep(for: .milliseconds(300))
        do {
            _ = try await database.column(sql: "SELECT 1")
            Issue.record("a read got a connection that was in use")
        } catch let error as SGError {
            guard case .unavailable(_, let retryAfter) = error else { throw error }
            #expect(retryAfter >= 1)
        }
        _ = try await held.value
        #expect(try await database.column(sql: "SELECT 1") == ["1"])
    }

    @Test func aProgramOlderThanTheDatabasesSchemaRefusesIt() async throws {
        let endpoint = try PostgresTestCluster.shared.newDatabase()
        let database = try AppDatabase.open(postgres: endpoint)
        try await database.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('9999_from_the_future')")
        database.closeConnections()
        for policy in [AppDatabase.SchemaPolicy.migrate, .requireCurrent] {
            #expect {
                _ = try AppDatabase.open(postgres: endpoint, schema: policy)
            } throws: { error in
                guard case SGError.schemaTooNew(let message) = error else { return false }
                return message.contains("9999_from_the_future")
            }
        }
    }
}
