import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// What an operator sees: metrics by route pattern and status, request ids on responses and in log lines, JSON
/// log lines, readiness.
@Suite struct OperatingAPITests {
    static func services(_ f: Fixture, metrics: ServerMetrics? = nil, trustedProxies: Set<String> = []) -> Services {
        Services(database: f.database, clock: f.clock, directory: f.localAccounts, trustedProxies: trustedProxies, metrics: metrics)
    }

    static func metricsText(_ metrics: ServerMetrics, _ services: Services) async throws -> String {
        let app = Application(router: buildMetricsRouter(metrics: metrics, services: services))
        return try await app.test(.router) { client in
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            return String(buffer: response.body)
        }
    }

    @Test func metricsCountRequestsByRoutePatternAndStatusAndLogins() async throws {
        let f = try await Fixture.make()
        let metrics = ServerMetrics()
        let services = Self.services(f, metrics: metrics)
        let app = buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: services)
        try await app.test(.router) { client in
            let client = APIHarness.Client(client: client)
            let alice = try await client.login("alice")
            _ = try await client.call(.post, "/v1/auth/login", json: #"{"username":"alice","password":"wrong-password"}"#)
            for id in [123_456, 654_321] { #expect(try await client.call(.get, "/v1/holidays/\(id)", token: alice).status == .notFound) }
            #expect(try await client.call(.get, "/v1/me", token: alice).status == .ok)
            #expect(try await client.call(.get, "/no/such/path/4711").status == .notFound)
            // Not on the API's listener.
            #expect(try await client.call(.get, "/metrics").status == .notFound)
        }
        let text = try await Self.metricsText(metrics, services)
        #expect(text.contains(#"sg_http_requests_total{route="/v1/holidays/{id}",method="GET",status="404"} 2"#), "\(text)")
        #expect(text.contains(#"sg_http_requests_total{route="/v1/me",method="GET",status="200"} 1"#))
        #expect(text.contains(#"sg_http_requests_total{route="/v1/auth/login",method="POST",status="401"} 1"#))
        #expect(text.contains(#"sg_http_requests_total{route="NotFound",method="GET",status="404"} 2"#))
        // Raw paths never become labels.
        #expect(!text.contains("123456") && !text.contains("4711"))
        #expect(text.contains(#"sg_http_request_duration_seconds_count{route="/v1/me",method="GET"} 1"#))
        #expect(text.contains(#"sg_logins_total{result="success"} 1"#))
        #expect(text.contains(#"sg_logins_total{result="failed"} 1"#))
        #expect(text.contains(#"sg_outbox_messages{status="pending"}"#))
        // The login wrote its session: one write transaction at least, with its lock wait.
        let transactions = text.split(separator: "\n").first { $0.hasPrefix("sg_database_transaction_seconds_count ") }
        #expect(Int(transactions?.split(separator: " ").last ?? "") ?? 0 >= 1, "\(text)")
        #expect(text.contains("sg_database_write_lock_wait_seconds_bucket"))
    }

    @Test func aThrottledLoginIsCountedAsSuch() async throws {
        let f = try await Fixture.make()
        let metrics = ServerMetrics()
        let throttle = LoginThrottle(limits: .init(perUsername: 1, perAddress: 100, window: 300), clock: f.clock)
        let services = Services(database: f.database, clock: f.clock, directory: f.localAccounts, throttle: throttle, metrics: metrics)
        let app = buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: services)
        try await app.test(.router) { client in
            let client = APIHarness.Client(client: client)
            for _ in 0..<3 { _ = try await client.call(.post, "/v1/auth/login", json: #"{"username":"bob","password":"wrong-password"}"#) }
        }
        let text = try await Self.metricsText(metrics, services)
        #expect(text.contains(#"sg_logins_total{result="throttled"} 2"#), "\(text)")
        #expect(text.contains(#"sg_logins_total{result="failed"} 1"#))
    }

    /// Every response carries an id; a forwarded one is taken from a trusted proxy only, and only when it is a
    /// plain token. The id is in the request's log lines, which are JSON objects with SG_LOG_FORMAT=json.
    @Test func requestIDsAreGeneratedOrTakenFromATrustedProxyAndLogged() async throws {
        let f = try await Fixture.make()
        let logFile = try LogFile()
        var logger = logFile.logger("sgserver")
        logger.logLevel = .debug

        func ids(trusting proxies: Set<String>) async throws -> [String?] {
            let app = buildApplication(
                configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: Self.services(f, trustedProxies: proxies),
                logger: logger)
            return try await app.test(.live) { client in
                var ids: [String?] = []
                for forwarded in [nil, "proxy-7f3a.42:b_c", "two words", String(repeating: "a", count: 129), "ünïcode"] {
                    var headers: HTTPFields = [:]
                    if let forwarded { headers[.init("X-Request-ID")!] = forwarded }
                    ids.append(try await client.execute(uri: "/v1/health", method: .get, headers: headers).headers[.init("X-Request-ID")!])
                }
                let problem = try await client.execute(uri: "/v1/nothing-here", method: .get)
                #expect(problem.status == .notFound)
                ids.append(problem.headers[.init("X-Request-ID")!])
                return ids
            }
        }

        let trusted = try await ids(trusting: ["127.0.0.1"])
        #expect(trusted[1] == "proxy-7f3a.42:b_c")
        let untrusted = try await ids(trusting: [])
        #expect(untrusted[1] != "proxy-7f3a.42:b_c")
        let generated = [trusted[0], trusted[2], trusted[3], trusted[4], trusted[5]] + untrusted
        for id in generated {
            let id = try #require(id)
            // Hummingbird's id: a per-process random part (not zero-padded) and a counter, in hex.
            #expect((17...32).contains(id.count) && id.allSatisfy(\.isHexDigit), "\(id)")
        }
        #expect(Set(generated).count == generated.count, "ids repeat: \(generated)")

        let lines = try logFile.text().split(separator: "\n")
        let objects = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
        let forwardedLines = objects.filter { $0["hb.request.id"] as? String == "proxy-7f3a.42:b_c" }
        let served = forwardedLines.first { $0["message"] as? String == "Request served" }
        #expect(served?["route"] as? String == "/v1/health", "\(objects)")
        #expect(served?["status"] as? String == "200")
        #expect(served?["level"] as? String == "debug")
        for id in generated.compactMap({ $0 }) {
            #expect(objects.contains { $0["hb.request.id"] as? String == id }, "no log line for \(id)")
        }
    }

    @Test func jsonLogLinesEscapeWhatTheyCarry() throws {
        let file = try LogFile()
        let logger = file.logger("sg\"label")
        let message = "quote \" backslash \\ newline \n tab \t bell \u{07} NUL \u{0} emoji 🏖️ ñ"
        logger.warning("\(message)", metadata: [
            "message": "a metadata key named like a fixed one", "list": ["a", "\"b\""], "nested": ["k": "v\nw"],
        ])
        logger.debug("below the level: not written")
        let lines = try file.text().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "one line and its newline: \(lines)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["message"] as? String == message)
        #expect(object["label"] as? String == "sg\"label")
        #expect(object["level"] as? String == "warning")
        #expect(object["metadata.message"] as? String == "a metadata key named like a fixed one")
        #expect(object["list"] as? [String] == ["a", "\"b\""])
        #expect((object["nested"] as? [String: String])?["k"] == "v\nw")
        let time = try #require(object["time"] as? String)
        #expect(time.hasSuffix("Z") && time.count == 24, "\(time)")
    }

    @Test func readinessAnswersReadyOnAWritableCurrentDatabase() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path)
        let app = buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: Self.services(f))
        try await app.test(.router) { client in
            let client = APIHarness.Client(client: client)
            let reply = try await client.call(.get, "/v1/health/ready")
            #expect(reply.status == .ok)
            #expect(reply.json["status"] as? String == "ready")
        }
    }

    /// A newer sgadmin migrated the database under a running server: no longer ready.
    @Test func readinessSaysWhenTheSchemaIsNotThisServers() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path)
        try await f.database.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('9999_from_the_future')")
        let app = buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: Self.services(f))
        try await app.test(.router) { client in
            let reply = try await APIHarness.Client(client: client).call(.get, "/v1/health/ready")
            expectProblem(reply, .serviceUnavailable, "unavailable")
            #expect((reply.json["detail"] as? String ?? "").contains("9999_from_the_future"), "\(reply.json)")
            #expect(reply.headers[.retryAfter] != nil)
            // Liveness is unaffected, and tells anyone nothing of the schema.
            let health = try await APIHarness.Client(client: client).call(.get, "/v1/health")
            #expect(health.status == .ok)
            #expect(String(decoding: health.body, as: UTF8.self) == #"{"schema":[],"status":"ok"}"#)
        }
    }
}

/// A file that JSON log lines are written to, removed with the value.
final class LogFile: Sendable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("sg-log-\(UUID().uuidString).jsonl")
    let descriptor: Int32

    init() throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        descriptor = open(url.path, O_WRONLY | O_APPEND)
        guard descriptor >= 0 else { throw TestSetupError("cannot open \(url.path)") }
    }

    deinit {
        close(descriptor)
        try? FileManager.default.removeItem(at: url)
    }

    func logger(_ label: String) -> Logger {
        let descriptor = descriptor
        return Logger(label: label) { label in JSONLogHandler(label: label, output: descriptor) }
    }

    func text() throws -> String { try String(contentsOf: url, encoding: .utf8) }
}
