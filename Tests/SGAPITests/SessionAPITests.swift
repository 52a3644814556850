import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// Sessions through the real router on a database file (where access tokens are remembered by the read
/// connections): short-lived access tokens, single-use refresh tokens, the list of sessions and ending them.
@Suite struct SessionAPITests {
    /// What a login or a refresh answered.
    struct Issued {
        let token: String
        let refreshToken: String
        let sessionID: Int
        let reply: APIHarness.Client.Reply
    }

    static func login(
        _ client: APIHarness.Client, _ username: String, deviceName: String? = nil, userAgent: String? = nil
    ) async throws -> Issued {
        var body: [String: Any] = ["username": username, "password": Fixture.password]
        if let deviceName { body["deviceName"] = deviceName }
        var headers: HTTPFields = [:]
        if let userAgent { headers[.userAgent] = userAgent }
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        return try issued(try await client.call(.post, "/v1/auth/login", json: json, headers: headers))
    }

    static func refresh(_ client: APIHarness.Client, _ refreshToken: String) async throws -> APIHarness.Client.Reply {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: ["refreshToken": refreshToken]), as: UTF8.self)
        return try await client.call(.post, "/v1/auth/refresh", json: json)
    }

    static func issued(_ reply: APIHarness.Client.Reply, sourceLocation: SourceLocation = #_sourceLocation) throws -> Issued {
        #expect(reply.status == .ok, "\(String(decoding: reply.body, as: UTF8.self))", sourceLocation: sourceLocation)
        return Issued(
            token: try #require(reply.json["token"] as? String, sourceLocation: sourceLocation),
            refreshToken: try #require(reply.json["refreshToken"] as? String, sourceLocation: sourceLocation),
            sessionID: try #require(reply.json["sessionId"] as? Int, sourceLocation: sourceLocation), reply: reply)
    }

    static func works(_ client: APIHarness.Client, _ token: String) async throws -> Bool {
        let reply = try await client.call(.get, "/v1/me", token: token)
        if reply.status != .ok { expectProblem(reply, .unauthorized, "unauthenticated") }
        return reply.status == .ok
    }

    static func withHarness(_ body: @escaping @Sendable (APIHarness, APIHarness.Client) async throws -> Void) async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let h = try await APIHarness.make(path: path.path)
        try await h.run { client in try await body(h, client) }
    }

    @Test func aLoginAnswersTheOldFieldsAndAShortAccessTokenWithARefreshToken() async throws {
        try await Self.withHarness { h, client in
            let login = try await Self.login(client, "alice")
            let now = h.fixture.clock.now()
            #expect(login.token.hasPrefix("sg_") && login.reply.json["tokenType"] as? String == "Bearer")
            #expect(login.reply.json["expiresAt"] as? String == Timestamp.format(now.addingTimeInterval(15 * 60)))
            #expect(login.reply.json["refreshExpiresAt"] as? String == Timestamp.format(now.addingTimeInterval(30 * 86_400)))
            #expect(login.refreshToken.hasPrefix("sgrt_") && login.refreshToken.count == 70)
            #expect((login.reply.json["employee"] as? [String: Any])?["username"] as? String == "alice")
            // Only digests are kept.
            let rows = try await h.fixture.count("sessions") + h.fixture.count("auth_tokens")
            #expect(rows == 2)
            func kept(_ value: Data) async throws -> [String?] {
                try await h.fixture.database.column(sql: """
                    SELECT (SELECT COUNT(*) FROM sessions WHERE refresh_hash = ?1) + (SELECT COUNT(*) FROM auth_tokens WHERE token_hash = ?1)
                    """, [.blob(value)])
            }
            #expect(try await kept(Data(login.token.utf8)) == ["0"])
            #expect(try await kept(Data(login.refreshToken.utf8)) == ["0"])
            #expect(try await kept(Digests.tokenDigest(login.refreshToken)) == ["1"])
        }
    }

    @Test func anAccessTokenExpiresAndARefreshGivesANewPairOnce() async throws {
        try await Self.withHarness { h, client in
            let login = try await Self.login(client, "alice")
            #expect(try await Self.works(client, login.token))
            h.fixture.clock.set(h.fixture.clock.now().addingTimeInterval(15 * 60 + 1))
            #expect(try await !Self.works(client, login.token))

            let first = try Self.issued(try await Self.refresh(client, login.refreshToken))
            #expect(first.sessionID == login.sessionID && first.token != login.token && first.refreshToken != login.refreshToken)
            // The new refresh token names the same session; its secret is new.
            #expect(first.refreshToken.prefix(27) == login.refreshToken.prefix(27))
            #expect(try await Self.works(client, first.token))
            let second = try Self.issued(try await Self.refresh(client, first.refreshToken))
            // The access token a refresh replaces keeps working (requests may be under way with it); older ones end.
            #expect(try await Self.works(client, first.token))
            #expect(try await Self.works(client, second.token))
            let third = try Self.issued(try await Self.refresh(client, second.refreshToken))
            #expect(try await !Self.works(client, first.token))
            #expect(try await Self.works(client, second.token))
            #expect(try await Self.works(client, third.token))
            // The session was used at the last refresh.
            let listed = try await client.call(.get, "/v1/me/sessions", token: third.token).items
            #expect(listed.first?["lastUsedAt"] as? String == Timestamp.format(h.fixture.clock.now()))
        }
    }

    @Test func aRefreshTokenUsedTwiceEndsItsWholeSession() async throws {
        try await Self.withHarness { h, client in
            let login = try await Self.login(client, "alice")
            let other = try await Self.login(client, "alice")
            let next = try Self.issued(try await Self.refresh(client, login.refreshToken))
            // Someone presents the used token (a copy, or the client's own after a lost answer).
            let reused = try await Self.refresh(client, login.refreshToken)
            expectProblem(reused, .unauthorized, "unauthenticated")
            #expect((reused.json["detail"] as? String)?.contains("used before") == true)
            // The chain is dead: its latest access and refresh tokens too, at the next request.
            #expect(try await !Self.works(client, next.token))
            expectProblem(try await Self.refresh(client, next.refreshToken), .unauthorized, "unauthenticated")
            #expect(try await h.fixture.count("sessions") == 1)
            // The employee's other session is left alone.
            #expect(try await Self.works(client, other.token))
            _ = try Self.issued(try await Self.refresh(client, other.refreshToken))
        }
    }

    @Test func aSessionEndsAtItsRefreshLifetime() async throws {
        try await Self.withHarness { h, client in
            let login = try await Self.login(client, "alice")
            var refreshToken = login.refreshToken
            // Refreshing does not stretch the session: it lasts 30 days from the login.
            for _ in 0..<3 {
                h.fixture.clock.set(h.fixture.clock.now().addingTimeInterval(10 * 86_400 - 60))
                let next = try Self.issued(try await Self.refresh(client, refreshToken))
                #expect(next.reply.json["refreshExpiresAt"] as? String == login.reply.json["refreshExpiresAt"] as? String)
                // An access token never outlives its session.
                #expect((next.reply.json["expiresAt"] as? String ?? "") <= (login.reply.json["refreshExpiresAt"] as? String ?? ""))
                refreshToken = next.refreshToken
            }
            h.fixture.clock.set(h.fixture.clock.now().addingTimeInterval(181))
            expectProblem(try await Self.refresh(client, refreshToken), .unauthorized, "unauthenticated")
            // Swept: the expired session is gone.
            #expect(try await h.fixture.count("sessions") == 0)
        }
    }

    @Test func expiredSessionsAreSweptAtTheNextLogin() async throws {
        try await Self.withHarness { h, client in
            _ = try await Self.login(client, "alice")
            _ = try await Self.login(client, "bob")
            h.fixture.clock.set(h.fixture.clock.now().addingTimeInterval(31 * 86_400))
            _ = try await Self.login(client, "admin")
            #expect(try await h.fixture.count("sessions") == 1)
            #expect(try await h.fixture.count("auth_tokens") == 1)
        }
    }

    @Test func theListShowsTheCallersSessionsAndWhichIsCurrent() async throws {
        try await Self.withHarness { h, client in
            let phone = try await Self.login(client, "alice", deviceName: "  Alice's iPhone ", userAgent: "SGEmployee/3.1 (iOS 18.1)")
            h.fixture.clock.set(h.fixture.clock.now().addingTimeInterval(60))
            let browser = try await Self.login(client, "alice", userAgent: "Mozilla/5.0\u{7}")
            _ = try await Self.login(client, "bob")
            let reply = try await client.call(.get, "/v1/me/sessions", token: phone.token)
            #expect(reply.status == .ok)
            let items = reply.items
            #expect(items.map { $0["id"] as? Int } == [browser.sessionID, phone.sessionID])
            #expect(items.map { $0["current"] as? Bool } == [false, true])
            #expect(items[1]["deviceName"] as? String == "Alice's iPhone")
            #expect(items[1]["userAgent"] as? String == "SGEmployee/3.1 (iOS 18.1)")
            #expect(items[0]["deviceName"] is NSNull && items[0]["userAgent"] as? String == "Mozilla/5.0")
            #expect(Set(items[0].keys) == ["id", "createdAt", "lastUsedAt", "expiresAt", "userAgent", "deviceName", "current"])
        }
    }

    @Test func endingOneSessionEndsItsTokensAndOnlyTheOwnerMayDoIt() async throws {
        try await Self.withHarness { h, client in
            let phone = try await Self.login(client, "alice")
            let laptop = try await Self.login(client, "alice")
            let bob = try await Self.login(client, "bob")
            // Another employee's session is not found, whoever asks; so is one that never existed.
            for token in [bob.token, try await client.login("admin")] {
                expectProblem(try await client.call(.delete, "/v1/me/sessions/\(laptop.sessionID)", token: token), .notFound, "not-found")
            }
            for id in ["999999", "0", "-1", "abc", "1e3"] {
                expectProblem(try await client.call(.delete, "/v1/me/sessions/\(id)", token: phone.token), .notFound, "not-found")
            }
            #expect(try await Self.works(client, laptop.token))
            // The session making the call logs out instead.
            expectProblem(try await client.call(.delete, "/v1/me/sessions/\(phone.sessionID)", token: phone.token), .conflict, "conflict")

            #expect(try await client.call(.delete, "/v1/me/sessions/\(laptop.sessionID)", token: phone.token).status == .noContent)
            #expect(try await !Self.works(client, laptop.token))
            expectProblem(try await Self.refresh(client, laptop.refreshToken), .unauthorized, "unauthenticated")
            expectProblem(try await client.call(.delete, "/v1/me/sessions/\(laptop.sessionID)", token: phone.token), .notFound, "not-found")
            #expect(try await Self.works(client, phone.token))
            #expect(try await Self.works(client, bob.token))
            #expect(try await client.call(.get, "/v1/me/sessions", token: phone.token).items.count == 1)
        }
    }

    @Test func loggingOutEverywhereKeepsOnlyTheCallingSession() async throws {
        try await Self.withHarness { h, client in
            let here = try await Self.login(client, "alice")
            let others = [try await Self.login(client, "alice"), try await Self.login(client, "alice")]
            let bob = try await Self.login(client, "bob")
            #expect(try await client.call(.delete, "/v1/me/sessions", token: here.token).status == .noContent)
            for other in others {
                #expect(try await !Self.works(client, other.token))
                expectProblem(try await Self.refresh(client, other.refreshToken), .unauthorized, "unauthenticated")
            }
            #expect(try await Self.works(client, here.token))
            #expect(try await Self.works(client, bob.token))
            #expect(try await client.call(.get, "/v1/me/sessions", token: here.token).items.map { $0["id"] as? Int } == [here.sessionID])
            _ = try Self.issued(try await Self.refresh(client, here.refreshToken))
        }
    }

    @Test func logoutEndsTheSessionRefreshTokenIncluded() async throws {
        try await Self.withHarness { h, client in
            let login = try await Self.login(client, "alice")
            #expect(try await client.call(.post, "/v1/auth/logout", token: login.token).status == .noContent)
            #expect(try await !Self.works(client, login.token))
            expectProblem(try await Self.refresh(client, login.refreshToken), .unauthorized, "unauthenticated")
            #expect(try await h.fixture.count("sessions") == 0)
        }
    }

    /// sgadmin deactivates in another process: no access token of the employee passes the next request, though
    /// each was remembered by the server's read connections, and no refresh token works.
    @Test func deactivationEndsEverySessionAtOnce() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let h = try await APIHarness.make(path: path.path)
        let sgadmin = try TestEngine.open(path: path.path, schema: .requireCurrent)
        try await h.run { client in
            let sessions = [try await Self.login(client, "bob"), try await Self.login(client, "bob")]
            let refreshed = try Self.issued(try await Self.refresh(client, sessions[0].refreshToken))
            for token in [refreshed.token, sessions[1].token] {
                for _ in 0..<3 { #expect(try await Self.works(client, token)) }
            }
            _ = try await sgadmin.services().accounts.deactivate(username: "bob")
            for token in [sessions[0].token, refreshed.token, sessions[1].token] { #expect(try await !Self.works(client, token)) }
            for token in [refreshed.refreshToken, sessions[1].refreshToken] {
                expectProblem(try await Self.refresh(client, token), .unauthorized, "unauthenticated")
            }
            #expect(try await h.fixture.count("sessions") == 0)
            #expect(try await h.fixture.count("auth_tokens") == 0)
        }
    }

    @Test func changingThePasswordEndsTheOtherSessionsRefreshTokensIncluded() async throws {
        try await Self.withHarness { h, client in
            let here = try await Self.login(client, "alice")
            let elsewhere = try await Self.login(client, "alice")
            let change = #"{"currentPassword":"\#(Fixture.password)","newPassword":"a-brand-new-secret"}"#
            #expect(try await client.call(.put, "/v1/me/password", token: here.token, json: change).status == .noContent)
            expectProblem(try await Self.refresh(client, elsewhere.refreshToken), .unauthorized, "unauthenticated")
            let next = try Self.issued(try await Self.refresh(client, here.refreshToken))
            #expect(try await Self.works(client, next.token))
            // An operator's new password ends them all.
            try await h.fixture.services.passwords.setPassword(username: "alice", to: "set-by-the-operator")
            #expect(try await !Self.works(client, next.token))
            expectProblem(try await Self.refresh(client, next.refreshToken), .unauthorized, "unauthenticated")
        }
    }

    @Test func hostileRefreshesAndLoginsAreProblems() async throws {
        try await Self.withHarness { h, client in
            let login = try await Self.login(client, "alice")
            let handle = login.refreshToken.prefix(27)
            let garbage = [
                "", "sgrt_", "sg_" + login.refreshToken.dropFirst(5), login.token, login.refreshToken + "x",
                String(login.refreshToken.dropLast()), String(repeating: "!", count: 70), String(repeating: "a", count: 100_000),
                "sgrt_" + String(repeating: "A", count: 65), "\(handle)\u{0}" + String(repeating: "A", count: 42),
                "sgrt_" + String(repeating: "é", count: 65),
            ]
            for token in garbage {
                let reply = try await Self.refresh(client, token)
                expectProblem(reply, .unauthorized, "unauthenticated")
            }
            // None of that named the session with a well-formed token: it lives on.
            _ = try Self.issued(try await Self.refresh(client, login.refreshToken))
            for body in [#"{}"#, #"{"refreshToken":5}"#, #"{"refreshToken":null}"#] {
                expectProblem(try await client.call(.post, "/v1/auth/refresh", json: body), .unprocessableContent, "validation-failed")
            }
            for body in ["[]", "not json", #"{"refreshToken":"#] {
                expectProblem(try await client.call(.post, "/v1/auth/refresh", json: body), .badRequest, "malformed-request")
            }
            let huge = #"{"refreshToken":""# + String(repeating: "A", count: 200_000) + #""}"#
            expectProblem(try await client.call(.post, "/v1/auth/refresh", json: huge), .contentTooLarge, "payload-too-large")
            for name in [String(repeating: "n", count: 101), "phone\u{0}", "two\nlines"] {
                let body = String(decoding: try JSONSerialization.data(withJSONObject: [
                    "username": "alice", "password": Fixture.password, "deviceName": name,
                ]), as: UTF8.self)
                let reply = try await client.call(.post, "/v1/auth/login", json: body)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == "deviceName")
            }
            #expect(try await h.fixture.count("sessions") == 1)
        }
    }

    /// The refresh route needs no login: a well-formed token naming no session is refused from a read, without
    /// the write lock, so a flood of them cannot queue up the writes of everyone else.
    @Test func aRefreshNamingNoSessionDoesNotWaitForTheWriteLock() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let h = try await APIHarness.make(path: path.path)
        // Another process holding the write lock.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: path.path, configuration: configuration)
        try await h.run { client in
            let login = try await Self.login(client, "alice")
            try await other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
            let forged = "sgrt_" + String(repeating: "A", count: 22) + login.refreshToken.suffix(43)
            expectProblem(try await Self.refresh(client, forged), .unauthorized, "unauthenticated")
            try await other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
            _ = try Self.issued(try await Self.refresh(client, login.refreshToken))
        }
    }

    @Test func aUserAgentIsKeptShortAndPrintable() async throws {
        try await Self.withHarness { h, client in
            let login = try await Self.login(client, "alice", userAgent: String(repeating: "ü", count: 500))
            let item = try #require(try await client.call(.get, "/v1/me/sessions", token: login.token).items.first)
            #expect((item["userAgent"] as? String)?.unicodeScalars.count == SessionClient.maximumUserAgent)
        }
    }
}
