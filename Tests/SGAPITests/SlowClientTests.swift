import Glibc
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// A raw TCP client on 127.0.0.1, for clients that misbehave on purpose.
struct RawClient {
    let fd: Int32

    init?(port: Int) {
        guard let fd = connectedLoopbackSocket(port: port) else { return nil }
        self.fd = fd
    }

    /// False once the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// What the server sends within `seconds`, until it closes the connection or, once it has sent something, goes
    /// quiet for a moment; `closed` tells whether it closed.
    func read(within seconds: Double) -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        let end = Date().addingTimeInterval(seconds)
        while true {
            let left = Int32(max(0, end.timeIntervalSinceNow) * 1000)
            let wait = received.isEmpty ? left : min(left, 200)
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, wait) > 0 else { return (String(decoding: received, as: UTF8.self), false) }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[0..<count]
        }
    }

    func close() { _ = Glibc.close(fd) }
}

/// Issue 18, finding 3: 1,100 connections sending their requests a byte at a time held every file descriptor, and
/// no connection was ever closed for being slow.
@Suite(.serialized) struct SlowClientTests {
    static func withServer(_ limits: ConnectionLimits, _ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        let f = try await Fixture.make()
        let services = Services(database: f.database, clock: f.clock, directory: f.localAccounts)
        let app = buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0, limits: limits), services: services)
        try await app.test(.live) { client in
            // The test client's own connection, open from here on, is one of those counted.
            #expect(try await client.execute(uri: "/v1/health", method: .get).status == .ok)
            try await body(try #require(client.port))
        }
    }

    @Test func aRequestHeadThatNeverEndsIsClosed() async throws {
        try await Self.withServer(ConnectionLimits(idleTimeout: .seconds(1), bodyTimeout: .seconds(30))) { port in
            let slow = try #require(RawClient(port: port))
            defer { slow.close() }
            slow.send("GET /v1/health HTTP/1.1\r\nHost: localhost\r\n")
            // Closed after a second; ten allow for a loaded machine.
            #expect(slow.read(within: 10).closed)
        }
    }

    @Test func aBodySentAByteAtATimeIsClosedAtItsDeadline() async throws {
        try await Self.withServer(ConnectionLimits(idleTimeout: .seconds(5), bodyTimeout: .seconds(1))) { port in
            let slow = try #require(RawClient(port: port))
            defer { slow.close() }
            slow.send("POST /v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
            // A byte every 300 ms keeps the idle time-out from ever firing; only the body's deadline closes it.
            var closed = false
            for _ in 0..<40 where !closed {
                if !slow.send(" ") { closed = true }
                if slow.read(within: 0.3).closed { closed = true }
            }
            #expect(closed)
        }
    }

    @Test func connectionsBeyondTheCapAreClosedUntilOneCloses() async throws {
        try await Self.withServer(ConnectionLimits(idleTimeout: .seconds(3), bodyTimeout: .seconds(30), maximumConnections: 3)) { port in
            let first = try #require(RawClient(port: port)), second = try #require(RawClient(port: port))
            defer { second.close() }
            // With the test client's, three are open: each is served, and stays open.
            for client in [first, second] {
                client.send("GET /v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
                #expect(client.read(within: 5).text.hasPrefix("HTTP/1.1 200"))
            }
            let third = try #require(RawClient(port: port))
            defer { third.close() }
            third.send("GET /v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
            // Not served while three are open: closed unanswered...
            let refused = third.read(within: 10)
            #expect(refused.closed && refused.text.isEmpty, "\(refused)")
            // ...and served once one of them has closed.
            first.close()
            var served = ""
            for _ in 0..<50 where served.isEmpty {
                guard let fourth = RawClient(port: port) else { break }
                fourth.send("GET /v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
                served = fourth.read(within: 0.2).text
                fourth.close()
            }
            #expect(served.hasPrefix("HTTP/1.1 200"), "\(served)")
        }
    }
}
