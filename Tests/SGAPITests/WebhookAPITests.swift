import Foundation
import Hummingbird
import HummingbirdTesting
import SGCore
import SGTestSupport
import Testing

@Suite struct WebhookAPITests {
    @Test func adminsManageSubscriptionsAndSeeTheSecretOnce() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let admin = try await client.login("admin")
            let created = try await client.call(
                .post, "/v1/webhooks", token: admin,
                json: #"{"url":"https://hooks.example.com/a","events":["holiday.approved","holiday.requested","holiday.approved"]}"#)
            #expect(created.status == .created)
            let id = try #require(created.json["id"] as? Int)
            let secret = try #require(created.json["secret"] as? String)
            #expect(secret.hasPrefix("whsec_"))
            #expect(created.json["events"] as? [String] == ["holiday.requested", "holiday.approved"])
            #expect(created.json["format"] as? String == "standard")
            #expect(created.json["disabledAt"] is NSNull)

            let listed = try await client.call(.get, "/v1/webhooks", token: admin)
            #expect(listed.status == .ok)
            #expect(listed.items.count == 1)
            #expect(listed.items.first?["secret"] == nil)
            let one = try await client.call(.get, "/v1/webhooks/\(id)", token: admin)
            #expect(one.json["url"] as? String == "https://hooks.example.com/a")
            #expect(one.json["secret"] == nil)

            #expect(try await client.call(.delete, "/v1/webhooks/\(id)", token: admin).status == .noContent)
            expectProblem(try await client.call(.get, "/v1/webhooks/\(id)", token: admin), .notFound, "not-found")
            expectProblem(try await client.call(.delete, "/v1/webhooks/\(id)", token: admin), .notFound, "not-found")
            #expect(try await h.fixture.count("webhooks") == 0)
        }
    }

    @Test func badSubscriptionsAreRefusedAndNothingIsWritten() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let admin = try await client.login("admin")
            for body in [
                #"{"url":"http://hooks.example.com/a","events":["holiday.approved"]}"#,
                #"{"url":"file:///etc/passwd","events":["holiday.approved"]}"#,
                #"{"url":"https://hooks.example.com/a","events":[]}"#,
                #"{"url":"https://user:secret@hooks.example.com/a","events":["holiday.approved"]}"#,
            ] {
                let reply = try await client.call(.post, "/v1/webhooks", token: admin, json: body)
                #expect(reply.status == .unprocessableContent, "\(body): \(String(decoding: reply.body, as: UTF8.self))")
                #expect(reply.isProblem)
            }
            let unknownEvent = try await client.call(
                .post, "/v1/webhooks", token: admin, json: #"{"url":"https://hooks.example.com/a","events":["password.reset"]}"#)
            #expect([400, 422].contains(Int(unknownEvent.status.code)))
            #expect(unknownEvent.isProblem)
            let nullFlag = try await client.call(
                .post, "/v1/webhooks", token: admin,
                json: #"{"url":"https://hooks.example.com/a","events":["holiday.approved"],"allowInsecure":null}"#)
            expectProblem(nullFlag, .unprocessableContent, "validation-failed")
            #expect(try await h.fixture.count("webhooks") == 0)

            // Plain http to a host on an internal network, said explicitly.
            let insecure = try await client.call(
                .post, "/v1/webhooks", token: admin,
                json: #"{"url":"http://intranet.example/a","events":["notice.published"],"format":"slack","allowInsecure":true}"#)
            #expect(insecure.status == .created)
            #expect(insecure.json["format"] as? String == "slack")
        }
    }

    @Test func theEmailSwitchIsAChannelOfTheSettings() async throws {
        let h = try await APIHarness.make()
        try await h.run { client in
            let alice = try await client.login("alice")
            var settings = try await client.call(.get, "/v1/me/settings", token: alice)
            #expect(settings.json["notifications"] as? Bool == true)
            #expect(settings.json["emailNotifications"] as? Bool == true)
            settings = try await client.call(.put, "/v1/me/settings", token: alice, json: #"{"emailNotifications":false}"#)
            #expect(settings.status == .ok)
            #expect(settings.json["notifications"] as? Bool == true)
            #expect(settings.json["emailNotifications"] as? Bool == false)
            settings = try await client.call(.put, "/v1/me/settings", token: alice, json: #"{"notifications":false}"#)
            #expect(settings.json["notifications"] as? Bool == false)
            #expect(settings.json["emailNotifications"] as? Bool == false)
            expectProblem(try await client.call(.put, "/v1/me/settings", token: alice, json: "{}"), .unprocessableContent, "validation-failed")
            expectProblem(
                try await client.call(.put, "/v1/me/settings", token: alice, json: #"{"notifications":true,"emailNotifications":null}"#),
                .unprocessableContent, "validation-failed")
        }
    }
}
