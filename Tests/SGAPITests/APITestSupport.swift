import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// Builds the real application over a fixture database and drives it through the router.
struct APIHarness {
    let fixture: Fixture
    /// Where logins are checked; nil: the fixture's local accounts.
    var directory: (any EmployeeDirectory)? = nil
    var sessionLifetimes = SessionLifetimes()
    /// The stand-in receivers are on 127.0.0.1, which a webhook may name only when allowed.
    var destinations = DestinationPolicy.testServers

    static func make(path: String? = nil, directory: (any EmployeeDirectory)? = nil) async throws -> APIHarness {
        APIHarness(fixture: try await Fixture.make(path: path), directory: directory)
    }

    var services: Services {
        Services(
            database: fixture.database, clock: fixture.clock, directory: directory ?? fixture.localAccounts,
            sessionLifetimes: sessionLifetimes, destinations: destinations)
    }

    func run(_ body: @escaping @Sendable (Client) async throws -> Void) async throws {
        let app = buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: services)
        try await app.test(.router) { client in try await body(Client(client: client)) }
    }

    /// Thin helpers over the test client: JSON in, status and JSON out.
    struct Client {
        let client: any TestClientProtocol

        struct Reply {
            let status: HTTPResponse.Status
            let headers: HTTPFields
            let body: Data

            var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
            var items: [[String: Any]] { json["items"] as? [[String: Any]] ?? [] }
            var isProblem: Bool { headers[.contentType] == "application/problem+json" }
            var problemType: String? { json["type"] as? String }
        }

        @discardableResult
        func call(_ method: HTTPRequest.Method, _ uri: String, token: String? = nil, json: String? = nil, headers extra: HTTPFields = [:]) async throws -> Reply {
            var headers = extra
            if let token { headers[.authorization] = "Bearer \(token)" }
            if json != nil { headers[.contentType] = "application/json" }
            let response = try await client.execute(
                uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
            return Reply(status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }

        /// Sends raw bytes, as a photo upload does.
        @discardableResult
        func send(_ method: HTTPRequest.Method, _ uri: String, token: String?, bytes: [UInt8], contentType: String = "image/png") async throws -> Reply {
            var headers: HTTPFields = [.contentType: contentType]
            if let token { headers[.authorization] = "Bearer \(token)" }
            let response = try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(bytes: bytes))
            return Reply(status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }

        func login(_ username: String, _ password: String = Fixture.password) async throws -> String {
            let reply = try await call(.post, "/v1/auth/login", json: #"{"username":"\#(username)","password":"\#(password)"}"#)
            #expect(reply.status == .ok)
            return try #require(reply.json["token"] as? String)
        }

        func create(_ token: String, _ start: CalendarDate, _ end: CalendarDate, comment: String = "") async throws -> Reply {
            let body = try JSONSerialization.data(withJSONObject: ["startDate": start.description, "endDate": end.description, "comment": comment])
            return try await call(.post, "/v1/me/holidays", token: token, json: String(decoding: body, as: UTF8.self))
        }
    }
}

func expectProblem(_ reply: APIHarness.Client.Reply, _ status: HTTPResponse.Status, _ slug: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(reply.status == status, sourceLocation: sourceLocation)
    #expect(reply.isProblem, "content type \(reply.headers[.contentType] ?? "none")", sourceLocation: sourceLocation)
    #expect(reply.problemType == "urn:sgemployee:problem:\(slug)", sourceLocation: sourceLocation)
    #expect(reply.json["status"] as? Int == Int(status.code), sourceLocation: sourceLocation)
    #expect(!((reply.json["detail"] as? String) ?? "").isEmpty, sourceLocation: sourceLocation)
}
