import Foundation
import SGCore
import SGDelivery
import SGStore
import SGTestSupport
import Testing

/// Push from the outbox to local stand-ins of APNs, FCM and a Web Push service (scripts/delivery/push_server.py,
/// HTTP/2 over TLS) that verify the tokens, signatures and encryption, through the real store on a SQLite file.
@Suite("Push delivery", .serialized, .enabled(if: Harness.shouldRun, "needs .venv (scripts/venv.sh)"))
struct PushDeliveryTests {
    /// A fixture whose server pushes to every platform, without e-mail.
    static func fixture() async throws -> DeliveryFixture {
        let f = try await DeliveryFixture.make(emailEnabled: false)
        try await f.services.delivery.announce(DeliveryConfiguration(
            publicURL: "https://holidays.example.com", pushPlatforms: Set(DevicePlatform.allCases), vapidPublicKey: "k"))
        return f
    }

    static func register(_ f: DeliveryFixture, _ employee: Employee, ios: [String] = [], android: [String] = [], web: [WebPushSubscription] = []) async throws {
        for token in ios { _ = try await f.services.devices.registerDevice(employeeID: employee.id, token: token, platform: .ios) }
        for token in android { _ = try await f.services.devices.registerDevice(employeeID: employee.id, token: token, platform: .android) }
        for subscription in web { _ = try await f.services.devices.registerWebDevice(employeeID: employee.id, subscription: subscription) }
    }

    /// A push straight into the outbox for `token`.
    static func enqueue(_ f: DeliveryFixture, _ employee: Employee, token: String, requestID: Int64 = 7) async throws -> Int64 {
        try await f.enqueue(OutboxDraft(
            channel: .push, event: .holidayApproved, employeeID: employee.id, address: token, subject: "Request approved",
            body: PushNotification(title: "Request approved", body: "Holiday", requestId: requestID, event: "holiday.approved").json))
    }

    static func devices(_ f: DeliveryFixture, _ employee: Employee) async throws -> [String] {
        try await f.services.devices.settings(employeeID: employee.id).devices.map(\.token)
    }

    @Test("an approval reaches the owner's iPhone, Android phone and browser, each verified as the real service would")
    func approval() async throws {
        let f = try await Self.fixture()
        defer { f.cleanUp() }
        let browser = try TestBrowser(name: "alice-firefox", folder: try PushKeys.shared.get().folder)
        let server = try await TestPushServer.start(browsers: [browser])
        try await Self.register(f, f.fixture.alice, ios: ["apns-alice-iphone"], android: ["fcm-alice-pixel"], web: [browser.subscription(server)])
        let day = f.fixture.weekday(10)
        let request = try await f.services.holidays.createRequest(
            for: f.fixture.alice.id, start: day, end: day, comment: "private comment", actor: f.fixture.alice.actor)
        _ = try await f.services.holidays.perform(.approve, on: request.id, by: f.fixture.admin.actor)
        let queued = try await f.services.delivery.messages(status: .pending).filter { $0.draft.channel == .push }
        #expect(queued.count == 3)
        #expect(queued.allSatisfy { $0.draft.employeeID == f.fixture.alice.id && $0.draft.event == .holidayApproved })

        try await running([pushWorker(try f.delivery(), push: try server.configuration())]) {
            try await waitUntil(within: 30, "three pushes sent") { try await f.counts()[.sent] == 3 }
        }
        let apns = try #require(server.requests("apns").first)
        #expect(apns["http"] as? String == "2")
        #expect(apns["key"] as? String == "apns-alice-iphone")
        #expect((apns["checks"] as? [String: Any])?["jwt"] as? String == "valid")
        #expect((apns["checks"] as? [String: Any])?.values.allSatisfy { ($0 as? Bool) ?? true } == true)
        let headers = try #require(apns["headers"] as? [String: String])
        #expect(headers["apns-collapse-id"] == "request-\(request.id)")
        #expect(headers["apns-push-type"] == "alert")
        #expect(Int(headers["apns-expiration"] ?? "") ?? 0 > Int(Date().timeIntervalSince1970))
        let payload = try #require(try JSONSerialization.jsonObject(with: Data((apns["body"] as? String ?? "").utf8)) as? [String: Any])
        let alert = try #require((payload["aps"] as? [String: Any])?["alert"] as? [String: String])
        #expect(alert["title"] == "Request approved")
        #expect(alert["body"]?.contains("\(day)") == true)
        #expect(alert["body"]?.contains("private comment") == false)
        #expect(payload["requestId"] as? Int == Int(request.id))

        let token = try #require(server.requests("fcm-token").first)
        #expect((token["checks"] as? [String: String])?["assertion"] == "valid")
        let fcm = try #require(server.requests("fcm").first)
        #expect(fcm["http"] as? String == "2")
        #expect(fcm["access"] as? String == token["issued"] as? String)
        let message = try #require(fcm["message"] as? [String: Any])
        #expect(message["token"] as? String == "fcm-alice-pixel")
        #expect((message["notification"] as? [String: String])?["title"] == "Request approved")
        #expect((message["data"] as? [String: String])?["requestId"] == String(request.id))

        let web = try #require(server.requests("webpush").first)
        #expect(web["http"] as? String == "2")
        #expect((web["checks"] as? [String: Any])?["vapid"] as? String == "valid")
        #expect((web["checks"] as? [String: Any])?["decrypted"] as? String == "yes")
        let decrypted = try #require(PushNotification(json: web["payload"] as? String ?? ""))
        #expect(decrypted.title == "Request approved")
        #expect(decrypted.requestId == request.id)
        #expect(web["topic"] as? String == "request-\(request.id)")
        await server.shutdown()
    }

    @Test("410 and BadDeviceToken (APNs), UNREGISTERED and an invalid token (FCM), 404 and 410 (Web Push) remove the device")
    func removals() async throws {
        let f = try await Self.fixture()
        defer { f.cleanUp() }
        let folder = try PushKeys.shared.get().folder
        let gone = try TestBrowser(name: "gone", folder: folder), missing = try TestBrowser(name: "missing", folder: folder)
        let kept = try TestBrowser(name: "kept", folder: folder)
        let server = try await TestPushServer.start(
            routes: ["apns-gone": "gone", "apns-bad": "bad-token", "fcm-gone": "gone", "fcm-bad-token": "bad-token", "gone": "gone", "missing": "not-found"],
            browsers: [gone, missing, kept])
        let alice = f.fixture.alice
        try await Self.register(
            f, alice, ios: ["apns-gone", "apns-bad", "apns-kept"], android: ["fcm-gone", "fcm-bad-token"],
            web: [gone.subscription(server), missing.subscription(server), kept.subscription(server)])
        var ids: [String: Int64] = [:]
        for token in try await Self.devices(f, alice) { ids[token] = try await Self.enqueue(f, alice, token: token) }
        try await running([pushWorker(try f.delivery(), push: try server.configuration())]) {
            try await waitUntil(within: 30, "every push answered") {
                try await f.counts()[.pending] == 0
            }
        }
        let keptWeb = DeviceRules.webToken(endpoint: kept.subscription(server).endpoint)
        #expect(Set(try await Self.devices(f, alice)) == ["apns-kept", keptWeb])
        for (token, id) in ids {
            let message = try await f.message(id)
            #expect(message.status == ([keptWeb, "apns-kept"].contains(token) ? .sent : .dead), "\(token): \(message.lastError ?? "")")
        }
        #expect(try await f.message(ids["apns-gone"]!).lastError?.contains("410") == true)
        #expect(try await f.message(ids["fcm-gone"]!).lastError?.contains("UNREGISTERED") == true)
        await server.shutdown()
    }

    @Test("a browser's endpoint on an internal address gets nothing unless allowed; the APNs and FCM APIs are the operator's and go")
    func internalEndpointRefused() async throws {
        let f = try await Self.fixture()
        defer { f.cleanUp() }
        let browser = try TestBrowser(name: "alice-intranet", folder: try PushKeys.shared.get().folder)
        let server = try await TestPushServer.start(browsers: [browser])
        try await Self.register(f, f.fixture.alice, ios: ["apns-alice-iphone"], web: [browser.subscription(server)])
        let web = try await Self.enqueue(f, f.fixture.alice, token: DeviceRules.webToken(endpoint: browser.subscription(server).endpoint))
        let ios = try await Self.enqueue(f, f.fixture.alice, token: "apns-alice-iphone")
        var strict = try server.configuration()
        strict.destinations = .publicOnly
        try await running([pushWorker(try f.delivery(), push: strict)]) {
            try await waitUntil(within: 30, "the web push refused, the iPhone's sent") {
                let refused = try await f.message(web).status == .dead
                let sent = try await f.message(ios).status == .sent
                return refused && sent
            }
        }
        #expect(try await f.message(web).lastError?.contains("127.0.0.1 is a loopback address") == true)
        #expect(server.requests("webpush").isEmpty, "the push service stand-in was never asked for the browser")
        #expect(server.requests("apns").count == 1)
        await server.shutdown()
    }

    @Test("a 404 that is not about the token (a wrong FCM project) keeps the device")
    func wrongProject() async throws {
        let f = try await Self.fixture()
        defer { f.cleanUp() }
        let server = try await TestPushServer.start()
        try await Self.register(f, f.fixture.alice, android: ["fcm-alice-pixel"])
        let id = try await Self.enqueue(f, f.fixture.alice, token: "fcm-alice-pixel")
        var push = try server.configuration()
        push.fcm?.account.projectID = "someone-elses-project"
        try await running([pushWorker(try f.delivery(), push: push)]) {
            try await waitUntil(within: 20, "the push answered") { try await f.message(id).status != .pending }
        }
        #expect(server.requests("fcm").map { $0["status"] as? Int } == [404])
        #expect(try await f.message(id).status == .dead)
        #expect(try await Self.devices(f, f.fixture.alice) == ["fcm-alice-pixel"])
        await server.shutdown()
    }

    @Test("429 and 503 are tried again after Retry-After, then delivered")
    func retried() async throws {
        let f = try await Self.fixture()
        defer { f.cleanUp() }
        let browser = try TestBrowser(name: "busy", folder: try PushKeys.shared.get().folder)
        let server = try await TestPushServer.start(
            routes: ["apns-busy": "throttle-then-ok", "fcm-busy": "unavailable-then-ok", "busy": "throttle-then-ok"], browsers: [browser])
        let alice = f.fixture.alice
        try await Self.register(f, alice, ios: ["apns-busy"], android: ["fcm-busy"], web: [browser.subscription(server)])
        var ids: [Int64] = []
        for token in try await Self.devices(f, alice) { ids.append(try await Self.enqueue(f, alice, token: token)) }
        // Waits up to 5 s, so the services' Retry-After (1 s) counts.
        let policy = RetryPolicy(firstDelay: 0.2, maximumDelay: 5, lease: 10)
        try await running([pushWorker(try f.delivery(policy: policy), push: try server.configuration())]) {
            try await waitUntil(within: 30, "all three sent") { try await f.counts()[.sent] == 3 }
        }
        for id in ids { #expect(try await f.message(id).attempts == 2) }
        for (service, key) in [("apns", "apns-busy"), ("fcm", "fcm-busy"), ("webpush", "busy")] {
            let answers = server.requests(service, key: key)
            #expect(answers.map { $0["status"] as? Int } == [service == "fcm" ? 503 : 429, service == "webpush" ? 201 : 200], "\(service)")
            // Retry-After: 1 is honoured: the second try comes a second or more after the first.
            let times = answers.compactMap { $0["received_at"] as? Double }
            #expect(times.count == 2 && times[1] - times[0] >= 0.9, "\(service)")
        }
        await server.shutdown()
    }

    @Test("one provider token and one access token serve many pushes; an expired one is renewed and the push tried again at once")
    func tokens() async throws {
        let f = try await Self.fixture()
        defer { f.cleanUp() }
        let server = try await TestPushServer.start(routes: ["apns-expired": "expired-token-once", "fcm-expired": "expired-token-once"])
        let alice = f.fixture.alice
        try await Self.register(f, alice, ios: ["apns-one", "apns-two"], android: ["fcm-one-phone", "fcm-two-phone"])
        // One lane: the sends go one after the other, so the second finds the first one's tokens.
        try await running([pushWorker(try f.delivery(), push: try server.configuration(), lanes: 1)]) {
            for token in ["apns-one", "apns-two", "fcm-one-phone", "fcm-two-phone"] { _ = try await Self.enqueue(f, alice, token: token) }
            try await waitUntil(within: 30, "four sent") { try await f.counts()[.sent] == 4 }
            #expect(Set(server.requests("apns").compactMap { $0["jwt"] as? String }).count == 1)
            #expect(server.requests("fcm-token").count == 1)

            // The services refuse the token once: a new one, and the same attempt sends.
            try await Self.register(f, alice, ios: ["apns-expired"], android: ["fcm-expired"])
            let apns = try await Self.enqueue(f, alice, token: "apns-expired")
            let fcm = try await Self.enqueue(f, alice, token: "fcm-expired")
            try await waitUntil(within: 30, "both sent") { try await f.counts()[.sent] == 6 }
            #expect(try await f.message(apns).attempts == 1)
            #expect(try await f.message(fcm).attempts == 1)
        }
        #expect(server.requests("apns", key: "apns-expired").map { $0["status"] as? Int } == [403, 200])
        #expect(server.requests("fcm", key: "fcm-expired").map { $0["status"] as? Int } == [401, 200])
        #expect(server.requests("fcm-token").count == 2)
        let jwts = server.requests("apns").compactMap { $0["jwt"] as? String }
        #expect(jwts.allSatisfy { !$0.isEmpty })
        await server.shutdown()
    }

    @Test("a service that hangs holds one lane until curl's time-out; the push waits for its retry and others go")
    func hang() async throws {
        let f = try await Self.fixture()
        defer { f.cleanUp() }
        let server = try await TestPushServer.start(routes: ["apns-hang": "hang"])
        let alice = f.fixture.alice
        try await Self.register(f, alice, ios: ["apns-hang", "apns-fine"])
        let stuck = try await Self.enqueue(f, alice, token: "apns-hang")
        let fine = try await Self.enqueue(f, alice, token: "apns-fine")
        let started = ContinuousClock.now
        let policy = RetryPolicy(firstDelay: 60, maximumDelay: 60, lease: 30)
        try await running([pushWorker(try f.delivery(policy: policy), push: try server.configuration(timeout: 2))]) {
            try await waitUntil(within: 20, "the other push sent") { try await f.message(fine).status == .sent }
            try await waitUntil(within: 20, "the hanging push given up for now") { try await f.message(stuck).lastError != nil }
        }
        #expect(ContinuousClock.now - started < .seconds(20))
        let message = try await f.message(stuck)
        #expect(message.status == .pending)
        #expect(message.lastError?.contains("curl 28") == true, "\(message.lastError ?? "")")
        #expect(try await Self.devices(f, alice).contains("apns-hang"))
        await server.shutdown()
    }

    @Test("a device registered since by another employee gets nothing meant for the previous one")
    func movedDevice() async throws {
        let f = try await Self.fixture()
        defer { f.cleanUp() }
        let server = try await TestPushServer.start()
        try await Self.register(f, f.fixture.alice, ios: ["apns-shared-ipad"])
        let id = try await Self.enqueue(f, f.fixture.alice, token: "apns-shared-ipad")
        try await Self.register(f, f.fixture.bob, ios: ["apns-shared-ipad"])
        try await running([pushWorker(try f.delivery(), push: try server.configuration())]) {
            try await waitUntil(within: 20, "the push dead") { try await f.message(id).status == .dead }
        }
        #expect(server.requests("apns").isEmpty)
        #expect(try await Self.devices(f, f.fixture.bob) == ["apns-shared-ipad"])
        await server.shutdown()
    }

    @Test("sgadmin push vapid-keys writes a key the server reads; sgadmin push test sends to every device and removes the unknown")
    func commandLine() async throws {
        let f = try await Self.fixture()
        defer { f.cleanUp() }
        let folder = try Harness.temporaryFolder("sg-vapid")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("vapid.pem").path
        let made = try await offload { try runProduct("sgadmin", ["push", "vapid-keys", keyFile]) }
        #expect(made.status == 0, "\(made.stderr)")
        let configuration = try WebPushConfiguration(keyFile: keyFile, subject: PushKeys.subject)
        #expect(made.stdout.contains("Public key (applicationServerKey): \(configuration.publicKey)"))
        #expect((try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int) == 0o600)
        let again = try await offload { try runProduct("sgadmin", ["push", "vapid-keys", keyFile]) }
        #expect(again.status == 1 && again.stderr.hasPrefix("sgadmin: ") && again.stderr.contains("exists"))

        let server = try await TestPushServer.start(routes: ["fcm-old-phone": "gone"])
        try await Self.register(f, f.fixture.alice, ios: ["apns-alice-iphone"], android: ["fcm-old-phone"])
        let keys = try PushKeys.shared.get()
        let environment = [
            "SG_DATABASE": f.path.path, "SG_TLS_CA_FILE": try Harness.certificate.get().cert,
            "SG_APNS_KEY_FILE": keys.apnsKeyFile, "SG_APNS_KEY_ID": PushKeys.apnsKeyID, "SG_APNS_TEAM_ID": PushKeys.teamID,
            "SG_APNS_TOPIC": PushKeys.topic, "SG_APNS_URL": server.url(""),
            "SG_FCM_SERVICE_ACCOUNT_FILE": server.accountFile, "SG_FCM_URL": server.url(""),
        ]
        let sent = try await offload { try runProduct("sgadmin", ["push", "test", "alice"], environment: environment) }
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(sent.stdout.contains("ios apns-alice-iphone: delivered"), "\(sent.stdout)")
        #expect(sent.stdout.contains("android fcm-old-phone: no longer registered, removed"), "\(sent.stdout)")
        #expect(try await Self.devices(f, f.fixture.alice) == ["apns-alice-iphone"])
        #expect((server.requests("apns").first?["checks"] as? [String: Any])?["jwt"] as? String == "valid")
        // Nothing went through the outbox.
        #expect(try await f.counts().values.reduce(0, +) == 0)

        let broken = environment.merging(["SG_APNS_KEY_FILE": folder.appendingPathComponent("missing.p8").path]) { _, new in new }
        let refused = try await offload { try runProduct("sgadmin", ["push", "test", "alice"], environment: broken) }
        #expect(refused.status == 1 && refused.stderr.contains("SG_APNS_KEY_FILE"), "\(refused.stderr)")
        await server.shutdown()
    }
}
