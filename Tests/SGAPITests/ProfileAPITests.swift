import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import SGAPI
import SGCore
import SGStore
import SGTestSupport

/// Logins checked against the local accounts, but a directory that provisions employees, as LDAP does:
/// it holds name, surname and e-mail.
struct ProvisioningDirectory: EmployeeDirectory {
    let local: LocalAccountDirectory
    let kind = "ldap"
    let provisionsEmployees = true
    func authenticate(username: String, password: String) async throws -> DirectoryAccount {
        try await local.authenticate(username: username, password: password)
    }
}

@Suite struct ProfileAPITests {
    @Test func theProfileShowsEveryFieldWithExplicitNulls() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let me = try await client.call(.get, "/v1/me", token: alice)
            #expect(me.status == .ok)
            for key in ["position", "birthDate", "phone", "twitter", "linkedin", "photoUrl"] {
                #expect(me.json[key] is NSNull, "\(key)")
            }
            #expect(me.json["username"] as? String == "alice" && me.json["isAdmin"] as? Bool == false)
            #expect(me.json["editableFields"] as? [String] == ["name", "surname", "position", "birthDate", "phone", "twitter", "linkedin", "language"])
            #expect(me.json["language"] as? String == "en")
        }
    }

    @Test("the language of an employee's push messages: en by default, es when they choose it")
    func language() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let patched = try await client.call(.patch, "/v1/me", token: alice, json: #"{"language":"es"}"#)
            #expect(patched.status == .ok && patched.json["language"] as? String == "es")
            #expect(try await client.call(.get, "/v1/me", token: alice).json["language"] as? String == "es")
            for body in [#"{"language":"fr"}"#, #"{"language":null}"#] {
                let refused = try await client.call(.patch, "/v1/me", token: alice, json: body)
                expectProblem(refused, .unprocessableContent, "validation-failed")
                #expect(refused.json["field"] as? String == "language")
            }
            // Colleagues do not see it.
            let bob = try await client.login("bob")
            #expect(try await client.call(.get, "/v1/employees/\(h.fixture.alice.id)", token: bob).json["language"] == nil)
        }
    }

    @Test func anEmployeeEditsTheirProfile() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let patched = try await client.call(.patch, "/v1/me", token: alice, json: """
                {"name":"Alicia","position":"Ingeniera jefe","birthDate":"1990-05-17","phone":"+34 600 123 456",
                 "twitter":"@alicia_dev","linkedin":"https://www.linkedin.com/in/alicia"}
                """)
            #expect(patched.status == .ok)
            #expect(patched.json["name"] as? String == "Alicia" && patched.json["surname"] as? String == "Example")
            #expect(patched.json["twitter"] as? String == "alicia_dev")
            #expect(patched.json["birthDate"] as? String == "1990-05-17")

            // Absent keys are kept; null clears.
            let cleared = try await client.call(.patch, "/v1/me", token: alice, json: #"{"phone":null}"#)
            #expect(cleared.json["phone"] is NSNull && cleared.json["position"] as? String == "Ingeniera jefe")
            #expect(try await client.call(.get, "/v1/me", token: alice).json["phone"] is NSNull)
            #expect(try await client.call(.patch, "/v1/me", token: alice, json: "{}").status == .ok)
        }
    }

    @Test func badFieldsAreRefusedOneByOneAndNothingIsWritten() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let cases: [(String, String)] = [
                (#"{"position":"Boss","birthDate":"2026-03-03"}"#, "birthDate"),  // tomorrow
                (#"{"position":"Boss","birthDate":"1990-02-30"}"#, "birthDate"),
                (#"{"position":"Boss","phone":"call me maybe"}"#, "phone"),
                (#"{"position":"Boss","linkedin":"https://evil.example/in/x"}"#, "linkedin"),
                (#"{"position":"Boss","twitter":"has spaces"}"#, "twitter"),
                (#"{"position":"\#(String(repeating: "x", count: 101))"}"#, "position"),
                (#"{"position":"Boss","name":null}"#, "name"),
                (#"{"position":"Boss","surname":""}"#, "surname"),
                (#"{"position":"Boss","name":42}"#, "name"),
                (#"{"position":"Boss","email":"alice@elsewhere.example"}"#, "email"),
                (#"{"position":"Boss","isAdmin":true}"#, "isAdmin"),
            ]
            for (body, field) in cases {
                let reply = try await client.call(.patch, "/v1/me", token: alice, json: body)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == field, "\(body)")
            }
            expectProblem(try await client.call(.patch, "/v1/me", token: alice, json: "[]"), .badRequest, "malformed-request")
            expectProblem(try await client.call(.patch, "/v1/me", json: #"{"position":"Boss"}"#), .unauthorized, "unauthenticated")
            let me = try await client.call(.get, "/v1/me", token: alice)
            #expect(me.json["position"] is NSNull && me.json["isAdmin"] as? Bool == false)
        }
    }

    @Test func fieldsTheDirectoryHoldsCannotBeChangedHere() async throws {
        let f = try await Fixture.make()
        let h = APIHarness(fixture: f, directory: ProvisioningDirectory(local: LocalAccountDirectory(accounts: f.database.accountStore, cost: 4)))
        try await h.run { client in
            let alice = try await client.login("alice")
            #expect(try await client.call(.get, "/v1/me", token: alice).json["editableFields"] as? [String]
                    == ["position", "birthDate", "phone", "twitter", "linkedin", "language"])
            let refused = try await client.call(.patch, "/v1/me", token: alice, json: #"{"surname":"Smith","position":"CTO"}"#)
            expectProblem(refused, .unprocessableContent, "validation-failed")
            #expect(refused.json["field"] as? String == "surname")
            #expect((refused.json["detail"] as? String)?.contains("held by the company directory (ldap)") == true)
            // The whole form sent back with the directory's values unchanged is fine.
            let ok = try await client.call(.patch, "/v1/me", token: alice, json: #"{"name":"Alice","surname":"Example","position":"CTO"}"#)
            #expect(ok.status == .ok && ok.json["position"] as? String == "CTO")
        }
    }
}

@Suite struct PhotoAPITests {
    @Test func aNewPhotoShowsEverywhereAtOnce() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let bob = try await client.login("bob")
            let first = try await client.send(.put, "/v1/me/photo", token: alice, bytes: TestImages.png(width: 4, height: 3))
            #expect(first.status == .ok)
            let firstURL = try #require(first.json["photoUrl"] as? String)
            #expect(first.json["contentType"] as? String == "image/png" && first.json["width"] as? Int == 4)
            let etag = try #require(first.json["etag"] as? String)
            #expect(firstURL == "/v1/employees/\(h.fixture.alice.id)/photo?v=\(etag)")
            #expect(first.headers[.eTag] == "\"\(etag)\"")

            // A colleague loads it from the directory's URL: cacheable for good, since the URL names the version.
            let entry = try await client.call(.get, "/v1/employees/\(h.fixture.alice.id)", token: bob)
            #expect(entry.json["photoUrl"] as? String == firstURL)
            let image = try await client.call(.get, firstURL, token: bob)
            #expect(image.status == .ok && image.headers[.contentType] == "image/png")
            #expect(image.body == Data(TestImages.png(width: 4, height: 3)))
            #expect(image.headers[.cacheControl] == "private, max-age=31536000, immutable")
            #expect(image.headers[.eTag] == "\"\(etag)\"")

            // Without the version, clients revalidate; the same version is a 304 without the bytes.
            let plain = try await client.call(.get, "/v1/employees/\(h.fixture.alice.id)/photo", token: bob)
            #expect(plain.headers[.cacheControl] == "private, no-cache")
            let revalidated = try await client.call(
                .get, "/v1/employees/\(h.fixture.alice.id)/photo", token: bob, headers: [.ifNoneMatch: "W/\"other\", \"\(etag)\""])
            #expect(revalidated.status == .notModified && revalidated.body.isEmpty && revalidated.headers[.eTag] == "\"\(etag)\"")
            // As swift-openapi-runtime sends it: the quotes percent-encoded. Still the same entity tag.
            let encoded = try await client.call(
                .get, "/v1/employees/\(h.fixture.alice.id)/photo", token: bob, headers: [.ifNoneMatch: "%22\(etag)%22"])
            #expect(encoded.status == .notModified)
            let encodedOther = try await client.call(
                .get, "/v1/employees/\(h.fixture.alice.id)/photo", token: bob, headers: [.ifNoneMatch: "%22other%22"])
            #expect(encodedOther.status == .ok)

            // A new photo: a new URL in the profile and the directory, and the old ETag no longer matches.
            let second = try await client.send(.put, "/v1/me/photo", token: alice, bytes: TestImages.jpeg(), contentType: "application/octet-stream")
            #expect(second.status == .ok && second.json["contentType"] as? String == "image/jpeg")
            let secondURL = try #require(second.json["photoUrl"] as? String)
            #expect(secondURL != firstURL)
            #expect(try await client.call(.get, "/v1/me", token: alice).json["photoUrl"] as? String == secondURL)
            let listed = try await client.call(.get, "/v1/employees?q=alice", token: bob).items.first
            #expect(listed?["photoUrl"] as? String == secondURL)
            let stale = try await client.call(.get, "/v1/employees/\(h.fixture.alice.id)/photo", token: bob, headers: [.ifNoneMatch: "\"\(etag)\""])
            #expect(stale.status == .ok && stale.body == Data(TestImages.jpeg()))
            // The old URL now answers with the new photo and must be revalidated.
            let oldURL = try await client.call(.get, firstURL, token: bob)
            #expect(oldURL.body == Data(TestImages.jpeg()) && oldURL.headers[.cacheControl] == "private, no-cache")

            #expect(try await client.call(.delete, "/v1/me/photo", token: alice).status == .noContent)
            #expect(try await client.call(.delete, "/v1/me/photo", token: alice).status == .noContent)
            #expect(try await client.call(.get, "/v1/me", token: alice).json["photoUrl"] is NSNull)
            expectProblem(try await client.call(.get, secondURL, token: bob), .notFound, "not-found")
        }
    }

    @Test func onlyJPEGAndPNGWithinTheLimitAreTaken() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            // A GIF declared as PNG: the bytes decide.
            expectProblem(try await client.send(.put, "/v1/me/photo", token: alice, bytes: TestImages.gif), .unsupportedMediaType, "unsupported-media-type")
            expectProblem(try await client.send(.put, "/v1/me/photo", token: alice, bytes: Array(#"{"photo":1}"#.utf8)), .unsupportedMediaType, "unsupported-media-type")
            let empty = try await client.send(.put, "/v1/me/photo", token: alice, bytes: [])
            expectProblem(empty, .unprocessableContent, "validation-failed")
            #expect(empty.json["field"] as? String == "photo")
            let truncated = try await client.send(.put, "/v1/me/photo", token: alice, bytes: Array(TestImages.png().prefix(40)))
            expectProblem(truncated, .unprocessableContent, "validation-failed")
            // Over 2 MiB: 413 saying the limit, however the body arrives.
            let big = TestImages.png(width: 1500, height: 1500)
            #expect(big.count > PhotoRules.maximumBytes)
            let tooLarge = try await client.send(.put, "/v1/me/photo", token: alice, bytes: big)
            expectProblem(tooLarge, .contentTooLarge, "payload-too-large")
            #expect((tooLarge.json["detail"] as? String)?.contains("2 MiB") == true)
            // Just under the limit is fine, even though JSON bodies stop at 128 KiB.
            let large = TestImages.png(width: 1400, height: 1400)
            #expect(large.count < PhotoRules.maximumBytes && large.count > AppRequestContext.maximumJSONBody)
            #expect(try await client.send(.put, "/v1/me/photo", token: alice, bytes: large).status == .ok)

            expectProblem(try await client.send(.put, "/v1/me/photo", token: nil, bytes: TestImages.png()), .unauthorized, "unauthenticated")
            expectProblem(try await client.call(.get, "/v1/employees/\(h.fixture.alice.id)/photo"), .unauthorized, "unauthenticated")
            expectProblem(try await client.call(.get, "/v1/employees/\(h.fixture.bob.id)/photo", token: alice), .notFound, "not-found")
            expectProblem(try await client.call(.get, "/v1/employees/999/photo", token: alice), .notFound, "not-found")
        }
        #expect(try await h.fixture.count("employee_photos") == 1)
    }
}

@Suite struct SettingsAPITests {
    @Test func notificationsAndDevices() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let bob = try await client.login("bob")
            let settings = try await client.call(.get, "/v1/me/settings", token: alice)
            #expect(settings.json["notifications"] as? Bool == true && (settings.json["devices"] as? [Any])?.isEmpty == true)

            let device = #"{"token":"apns-0123456789abcdef","platform":"ios"}"#
            let created = try await client.call(.post, "/v1/me/devices", token: alice, json: device)
            #expect(created.status == .created && created.json["platform"] as? String == "ios")
            #expect(try await client.call(.post, "/v1/me/devices", token: alice, json: device).status == .ok)
            #expect(try await client.call(.post, "/v1/me/devices", token: alice, json: #"{"token":"fcm:abc-def_ghi","platform":"android"}"#).status == .created)
            #expect((try await client.call(.get, "/v1/me/settings", token: alice).json["devices"] as? [Any])?.count == 2)
            // Bob sees none of them and cannot remove them.
            #expect((try await client.call(.get, "/v1/me/settings", token: bob).json["devices"] as? [Any])?.isEmpty == true)
            expectProblem(try await client.call(.delete, "/v1/me/devices/fcm:abc-def_ghi", token: bob), .notFound, "not-found")

            for (body, field) in [
                (#"{"token":"apns-0123456789abcdef","platform":"windows"}"#, "platform"),
                (#"{"token":"short","platform":"ios"}"#, "token"),
                (#"{"token":"has spaces in it","platform":"ios"}"#, "token"),
                (#"{"platform":"ios"}"#, "token"),
            ] {
                let reply = try await client.call(.post, "/v1/me/devices", token: alice, json: body)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == field)
            }

            #expect(try await client.call(.delete, "/v1/me/devices/fcm:abc-def_ghi", token: alice).status == .noContent)
            expectProblem(try await client.call(.delete, "/v1/me/devices/fcm:abc-def_ghi", token: alice), .notFound, "not-found")

            // Off removes every device, and no device can be added until it is on again.
            let off = try await client.call(.put, "/v1/me/settings", token: alice, json: #"{"notifications":false}"#)
            #expect(off.json["notifications"] as? Bool == false && (off.json["devices"] as? [Any])?.isEmpty == true)
            expectProblem(try await client.call(.post, "/v1/me/devices", token: alice, json: device), .conflict, "conflict")
            #expect(try await client.call(.put, "/v1/me/settings", token: alice, json: #"{"notifications":true}"#).json["notifications"] as? Bool == true)
            #expect(try await client.call(.post, "/v1/me/devices", token: alice, json: device).status == .created)

            let wrong = try await client.call(.put, "/v1/me/settings", token: alice, json: #"{"notifications":"no"}"#)
            expectProblem(wrong, .unprocessableContent, "validation-failed")
            #expect(wrong.json["field"] as? String == "notifications")
            expectProblem(try await client.call(.put, "/v1/me/settings", token: alice, json: "{}"), .unprocessableContent, "validation-failed")
        }
        #expect(try await h.fixture.count("devices") == 1)
    }

    @Test("a browser registers its push subscription as the browser gives it, while the server sends Web Push; its token is made from the endpoint")
    func webSubscription() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            let endpoint = "https://push.example.net/wpush/v2/gAAAAABk-abc"
            let p256dh = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
            let auth = "BTBZMqHH6r4Tts7J_aSIgg"
            func body(endpoint: String = endpoint, p256dh: String = p256dh, auth: String = auth, platform: String = "web") -> String {
                #"{"platform":"\#(platform)","subscription":{"endpoint":"\#(endpoint)","keys":{"p256dh":"\#(p256dh)","auth":"\#(auth)"}}}"#
            }
            // Without Web Push the subscription could never receive anything: refused, and nothing kept.
            let off = try await client.call(.post, "/v1/me/devices", token: alice, json: body())
            expectProblem(off, .conflict, "conflict")
            #expect((off.json["detail"] as? String ?? "").contains("Web Push"))
            #expect(try await h.fixture.count("devices") == 0)
            try await h.fixture.services.delivery.announce(DeliveryConfiguration(pushPlatforms: [.web], vapidPublicKey: "BPublicKey"))

            let created = try await client.call(.post, "/v1/me/devices", token: alice, json: body())
            #expect(created.status == .created)
            #expect(created.json["platform"] as? String == "web" && created.json["endpoint"] as? String == endpoint)
            let token = try #require(created.json["token"] as? String)
            #expect(token == DeviceRules.webToken(endpoint: endpoint) && token.hasPrefix("web_"))
            #expect(try await client.call(.post, "/v1/me/devices", token: alice, json: body()).status == .ok)

            for (json, field) in [
                (body(endpoint: "http://push.example.net/x"), "subscription.endpoint"),
                (body(p256dh: "AAAA"), "subscription.keys.p256dh"),
                (body(p256dh: String(p256dh.dropFirst()) + "A"), "subscription.keys.p256dh"),
                (body(auth: "tBHItJI5svbpez7KI4CC"), "subscription.keys.auth"),
                (#"{"platform":"web","token":"abcdefghijkl"}"#, "subscription"),
                (body(platform: "ios"), "subscription"),
                (#"{"platform":"ios","token":"abcdefghijkl","subscription":null}"#, "subscription"),
            ] {
                let reply = try await client.call(.post, "/v1/me/devices", token: alice, json: json)
                expectProblem(reply, .unprocessableContent, "validation-failed")
                #expect(reply.json["field"] as? String == field, "\(json)")
            }
            #expect(try await client.call(.delete, "/v1/me/devices/\(token)", token: alice).status == .noContent)
        }
        #expect(try await h.fixture.count("devices") == 0)
    }
}

@Suite struct AccessTests {
    /// Every new endpoint wants a token, and admin operations want an admin.
    @Test func tokensAndAdminsAreRequired() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let routes: [(HTTPRequest.Method, String)] = [
                (.get, "/v1/me"), (.patch, "/v1/me"), (.put, "/v1/me/photo"), (.delete, "/v1/me/photo"),
                (.get, "/v1/me/settings"), (.put, "/v1/me/settings"), (.post, "/v1/me/devices"), (.delete, "/v1/me/devices/abcdefghij"),
                (.get, "/v1/employees"), (.get, "/v1/employees/1"), (.get, "/v1/employees/1/photo"), (.get, "/v1/employees/1/holidays"),
                (.get, "/v1/notices"), (.post, "/v1/notices"), (.get, "/v1/notices/1"), (.patch, "/v1/notices/1"),
                (.delete, "/v1/notices/1"), (.post, "/v1/notices/1/read"), (.delete, "/v1/notices/1/read"),
                (.get, "/v1/company"), (.put, "/v1/company"),
            ]
            for (method, path) in routes {
                expectProblem(try await client.call(method, path, json: "{}"), .unauthorized, "unauthenticated")
            }
            let alice = try await client.login("alice")
            let adminOnly: [(HTTPRequest.Method, String, String?)] = [
                (.post, "/v1/notices", #"{"title":"x","body":"y"}"#), (.patch, "/v1/notices/1", #"{"title":"x"}"#),
                (.delete, "/v1/notices/1", nil), (.put, "/v1/company", "{}"),
                (.get, "/v1/employees/\(h.fixture.bob.id)/holidays", nil), (.get, "/v1/notices?includeExpired=true", nil),
            ]
            for (method, path, body) in adminOnly {
                expectProblem(try await client.call(method, path, token: alice, json: body), .forbidden, "forbidden")
            }
        }
        #expect(try await h.fixture.count("notices") == 0)
    }
}

/// Photos over a real socket: a body near the limit arrives whole, one over it is refused with a 413.
@Suite struct PhotoLiveTests {
    @Test func uploadsOverTCP() async throws {
        let h = try await APIHarness.make()
        let app = buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: h.services)
        try await app.test(.live) { client in
            let login = try await client.execute(
                uri: "/v1/auth/login", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"username":"alice","password":"\#(Fixture.password)"}"#))
            let token = try #require(
                (try JSONSerialization.jsonObject(with: Data(login.body.readableBytesView)) as? [String: Any])?["token"] as? String)
            let headers: HTTPFields = [.authorization: "Bearer \(token)", .contentType: "image/png"]
            let large = TestImages.png(width: 1400, height: 1400)
            let stored = try await client.execute(uri: "/v1/me/photo", method: .put, headers: headers, body: ByteBuffer(bytes: large))
            #expect(stored.status == .ok)
            let tooLarge = try await client.execute(
                uri: "/v1/me/photo", method: .put, headers: headers, body: ByteBuffer(bytes: TestImages.png(width: 1500, height: 1500)))
            #expect(tooLarge.status == .contentTooLarge && tooLarge.headers[.contentType] == "application/problem+json")
            let photo = try await client.execute(uri: "/v1/employees/\(h.fixture.alice.id)/photo", method: .get, headers: headers)
            #expect(photo.status == .ok && Data(photo.body.readableBytesView) == Data(large))
        }
    }
}
