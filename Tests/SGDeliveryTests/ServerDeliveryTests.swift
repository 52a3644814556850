import Foundation
import SGCore
import SGStore
import SGTestSupport
import Testing

/// The built sgserver with the e-mail settings, as an operator runs it.
@Suite("sgserver delivers", .serialized, .enabled(if: Harness.shouldRun, "needs .venv (scripts/venv.sh)"))
struct ServerDeliveryTests {
    /// sgserver on a free port with a fresh demo database and `environment`; its output goes to a file.
    final class Server: @unchecked Sendable {
        let folder: URL
        let port = freePort()
        let process = Process()
        var database: String { folder.appendingPathComponent("sgemployee.sqlite").path }
        var output: String { (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? "" }

        /// `folder`: another server's, to run on its database (as a restarted server does).
        init(environment extra: [String: String], folder existing: URL? = nil) throws {
            folder = try existing ?? Harness.temporaryFolder("sg-server-delivery")
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SG_") }
            environment["SG_DATABASE"] = database
            environment["SG_PORT"] = String(port)
            environment["SG_LOG_LEVEL"] = "info"
            // The stand-ins listen on 127.0.0.1: allowed, as an admin allows an internal receiver.
            environment["SG_ALLOWED_INTERNAL_ADDRESSES"] = "127.0.0.1"
            for (key, value) in extra { environment[key] = value }
            let log = folder.appendingPathComponent("server.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.executableURL = builtProduct("sgserver")
            process.arguments = ["--seed-demo"]
            process.environment = environment
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            let started = Date()
            while !canConnect(port: port), process.isRunning, Date().timeIntervalSince(started) < 30 { usleep(50_000) }
            guard canConnect(port: port) else { throw TestSetupError("sgserver did not start: \(output)") }
        }

        /// SIGTERM, then the exit status.
        func stop() -> Int32 {
            process.terminate()
            process.waitUntilExit()
            return process.terminationStatus
        }

        func curl(_ arguments: [String]) throws -> String {
            try runTool("/usr/bin/env", ["curl", "-sS", "--max-time", "10"] + arguments)
        }

        func login(_ username: String) throws -> String {
            let body = try curl([
                "-X", "POST", "http://127.0.0.1:\(port)/v1/auth/login", "-H", "Content-Type: application/json",
                "-d", #"{"username":"\#(username)","password":"\#(username)-demo-2026"}"#,
            ])
            let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            guard let token = json?["token"] as? String else { throw TestSetupError("no token: \(body)") }
            return token
        }

        /// SIGKILL: to the outbox, a server that crashed mid-send.
        func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        /// Whether this server's folder is removed when it goes (false for a server another one restarts on).
        var ownsFolder = true

        deinit {
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
            }
            if ownsFolder { try? FileManager.default.removeItem(at: folder) }
        }
    }

    /// The base64 lines of a PEM file: what would show of the key if any of it reached a log.
    static func keyLines(_ pem: String) -> [String] {
        pem.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") && $0.count >= 16 }
    }

    @Test("a debug log of a server with every secret set holds none of them, nor any token it handed out")
    func debugLogHoldsNoSecret() async throws {
        let smtp = try await TestSMTPServer.start()
        let push = try await TestPushServer.start()
        let receiver = try await TestWebhookReceiver.start(routes: ["/hooks": "ok"])
        let folder = try Harness.temporaryFolder("sg-secrets")
        defer { try? FileManager.default.removeItem(at: folder) }
        let passwordFile = folder.appendingPathComponent("smtp-password")
        try (TestSMTPServer.password + "\n").write(to: passwordFile, atomically: true, encoding: .utf8)
        let keys = try PushKeys.shared.get()
        let server = try await offload {
            try Server(environment: [
                "SG_LOG_LEVEL": "trace",
                "SG_SMTP_URL": smtp.url, "SG_SMTP_USER": TestSMTPServer.user, "SG_SMTP_PASSWORD_FILE": passwordFile.path,
                "SG_MAIL_FROM": "SGEmployee <noreply@sgemployee.test>", "SG_TLS_CA_FILE": try Harness.certificate.get().cert,
                "SG_PUBLIC_URL": "https://holidays.example.com", "SG_DELIVERY_POLL_MS": "50",
                "SG_APNS_KEY_FILE": keys.apnsKeyFile, "SG_APNS_KEY_ID": PushKeys.apnsKeyID, "SG_APNS_TEAM_ID": PushKeys.teamID,
                "SG_APNS_TOPIC": PushKeys.topic, "SG_APNS_URL": push.url(""),
                "SG_FCM_SERVICE_ACCOUNT_FILE": push.accountFile, "SG_FCM_URL": push.url(""),
                "SG_VAPID_PRIVATE_KEY_FILE": keys.vapidKeyFile, "SG_VAPID_SUBJECT": PushKeys.subject,
            ])
        }
        // Tokens of every kind go through the server: a login and its refresh, a webhook's signing secret, a calendar
        // feed's secret address, a reset link, and messages sent with the SMTP password and the push keys.
        let loginBody = try server.curl([
            "-X", "POST", "http://127.0.0.1:\(server.port)/v1/auth/login", "-H", "Content-Type: application/json",
            "-d", #"{"username":"admin","password":"admin-demo-2026"}"#,
        ])
        let login = try #require(try JSONSerialization.jsonObject(with: Data(loginBody.utf8)) as? [String: Any])
        let access = try #require(login["token"] as? String)
        let refresh = try #require(login["refreshToken"] as? String)
        let refreshed = try server.curl([
            "-X", "POST", "http://127.0.0.1:\(server.port)/v1/auth/refresh", "-H", "Content-Type: application/json",
            "-d", #"{"refreshToken":"\#(refresh)"}"#,
        ])
        let token = try #require((try JSONSerialization.jsonObject(with: Data(refreshed.utf8)) as? [String: Any])?["token"] as? String)
        let hook = try server.curl([
            "-X", "POST", "http://127.0.0.1:\(server.port)/v1/webhooks", "-H", "Authorization: Bearer \(token)",
            "-H", "Content-Type: application/json",
            "-d", #"{"url":"\#(receiver.url("/hooks"))","events":["notice.published"]}"#,
        ])
        let secret = try #require((try JSONSerialization.jsonObject(with: Data(hook.utf8)) as? [String: Any])?["secret"] as? String, "\(hook)")
        let feed = try server.curl([
            "-X", "POST", "http://127.0.0.1:\(server.port)/v1/me/calendar-feeds", "-H", "Authorization: Bearer \(token)",
            "-H", "Content-Type: application/json", "-d", #"{"kind":"company"}"#,
        ])
        let feedPath = try #require((try JSONSerialization.jsonObject(with: Data(feed.utf8)) as? [String: Any])?["path"] as? String)
        _ = try server.curl(["http://127.0.0.1:\(server.port)\(feedPath)"])
        _ = try server.curl([
            "-X", "POST", "http://127.0.0.1:\(server.port)/v1/notices", "-H", "Authorization: Bearer \(token)",
            "-H", "Content-Type: application/json", "-d", #"{"title":"Secrets","body":"None in the log."}"#,
        ])
        _ = try server.curl([
            "-X", "POST", "http://127.0.0.1:\(server.port)/v1/auth/password-reset", "-H", "Content-Type: application/json",
            "-d", #"{"login":"alice"}"#,
        ])
        try await waitUntil(within: 30, server.output) { receiver.deliveries(to: "/hooks").count == 1 && smtp.messages.count >= 2 }
        #expect(try await offload { server.stop() } == 0)
        let log = server.output
        #expect(log.contains(" debug ") || log.contains(" trace "), "the log is at debug level")
        let resetToken = try #require(smtp.messages.compactMap { message -> String? in
            guard let text = message["text"] as? String, let start = text.range(of: "sgr_") else { return nil }
            return String(text[start.lowerBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
        }.first, "a reset link was mailed")
        let secrets = [TestSMTPServer.password, access, refresh, token, secret, String(secret.dropFirst(6)), feedPath, resetToken]
            + Self.keyLines(try String(contentsOfFile: keys.apnsKeyFile, encoding: .utf8))
            + Self.keyLines(try String(contentsOfFile: keys.vapidKeyFile, encoding: .utf8)) + Self.keyLines(keys.rsaKeyPEM)
        for value in secrets { #expect(!log.contains(value), "the log holds \(value.prefix(12))…") }
        await receiver.shutdown()
        await push.shutdown()
        await smtp.shutdown()
    }

    @Test("a request made through the API reaches the approver by e-mail with a link; SIGTERM still exits 0")
    func emailThroughTheServer() async throws {
        let smtp = try await TestSMTPServer.start()
        let passwordFile = try Harness.temporaryFolder("sg-smtp-password").appendingPathComponent("password")
        try (TestSMTPServer.password + "\n").write(to: passwordFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: passwordFile.deletingLastPathComponent()) }
        let server = try await offload {
            try Server(environment: [
                "SG_SMTP_URL": smtp.url, "SG_SMTP_USER": TestSMTPServer.user, "SG_SMTP_PASSWORD_FILE": passwordFile.path,
                "SG_MAIL_FROM": "SGEmployee <noreply@sgemployee.test>", "SG_TLS_CA_FILE": try Harness.certificate.get().cert,
                "SG_PUBLIC_URL": "https://holidays.example.com/", "SG_DELIVERY_POLL_MS": "50",
                "SG_DELIVERY_RETRY_SECONDS": "0.2,1",
            ])
        }
        let token = try server.login("alice")
        // A one-day request far enough ahead to be free of the demo's requests and public holidays.
        var created: [String: Any]?
        var day = CalendarDate(Date(), in: TimeZone(identifier: "UTC")!).adding(days: 200)!
        for _ in 0..<10 where created == nil {
            while day.isoWeekday > 5 { day = day.adding(days: 1)! }
            let body = try server.curl([
                "-X", "POST", "http://127.0.0.1:\(server.port)/v1/me/holidays", "-H", "Authorization: Bearer \(token)",
                "-H", "Content-Type: application/json", "-d", #"{"startDate":"\#(day)","endDate":"\#(day)"}"#,
            ])
            created = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
            if created?["id"] == nil { created = nil }
            day = day.adding(days: 1)!
        }
        let id = try #require(created?["id"] as? Int, "\(server.output)")

        // Alice is in the demo's Engineering team, whose approver is eva.
        try await waitUntil(within: 20, server.output) {
            smtp.messages.contains { $0["to_address"] as? String == "eva@example.com" }
        }
        let mail = try #require(smtp.messages.first { $0["to_address"] as? String == "eva@example.com" })
        #expect((mail["subject"] as? String ?? "").hasPrefix("Holiday request from Alice "))
        #expect((mail["text"] as? String ?? "").contains("https://holidays.example.com/holidays/\(id)"))
        #expect(mail["tls"] as? Bool == true)
        #expect(mail["auth"] as? String == TestSMTPServer.user)

        // What the server announced, for sgadmin and other servers to compose alike.
        let database = try AppDatabase.open(path: server.database)
        let configuration = try await database.outboxStore.write { tx in try tx.deliveryConfiguration() }
        #expect(configuration == DeliveryConfiguration(emailEnabled: true, publicURL: "https://holidays.example.com"))

        let status = try await offload { server.stop() }
        #expect(status == 0, "\(server.output)")
        #expect(!server.output.contains("e-mail is off"))
        await smtp.shutdown()
    }

    @Test("a server killed mid-send and started again sends that message once more, with the same webhook-id")
    func killedMidSend() async throws {
        let receiver = try await TestWebhookReceiver.start(routes: ["/crash": "hang-then-ok"])
        // A 3 s lease: the restarted server takes the killed one's message over soon.
        let environment = ["SG_DELIVERY_POLL_MS": "50", "SG_DELIVERY_RETRY_SECONDS": "0.2,1,3"]
        let first = try await offload { try Server(environment: environment) }
        first.ownsFolder = false
        defer { try? FileManager.default.removeItem(at: first.folder) }
        let database = try AppDatabase.open(path: first.database)
        let now = Date()
        let subscription = try await database.webhookStore.write { tx in
            try tx.insertWebhook(
                url: receiver.url("/crash"), events: DeliveryEvent.subscribable, format: .standard, privateDetails: false,
                secret: TestWebhookReceiver.secret, at: now).id
        }
        let id = try await database.outboxStore.write { tx -> Int64 in
            try tx.enqueue(
                OutboxDraft(channel: .webhook, event: .noticePublished, webhookID: subscription, address: receiver.url("/crash"),
                            body: #"{"type":"notice.published"}"#),
                at: now)
            return try tx.outboxMessages(status: .pending, afterID: nil, limit: 1000).last!.id
        }
        // The first attempt reaches the endpoint, which does not answer; the server dies with the send under way.
        try await waitUntil(within: 20, first.output) { receiver.deliveries(to: "/crash").count == 1 }
        try await offload { first.kill() }
        #expect(try await database.outboxStore.read { tx in try tx.outboxMessage(id: id) }?.status == .pending)

        let second = try await offload { try Server(environment: environment, folder: first.folder) }
        try await waitUntil(within: 30, second.output) {
            try await database.outboxStore.read { tx in try tx.outboxMessage(id: id) }?.status == .sent
        }
        let deliveries = receiver.deliveries(to: "/crash")
        #expect(deliveries.count == 2)
        #expect(Set(deliveries.compactMap { $0["id"] as? String }).count == 1)
        #expect(deliveries.allSatisfy { $0["valid"] as? Bool == true })
        let message = try #require(try await database.outboxStore.read { tx in try tx.outboxMessage(id: id) })
        #expect(message.attempts == 2)
        #expect(try await offload { second.stop() } == 0)
        await receiver.shutdown()
    }

    @Test("without SG_SMTP_URL: e-mail is off, said once, and no e-mail is written into the outbox")
    func emailOff() async throws {
        let server = try await offload { try Server(environment: [:]) }
        let token = try server.login("alice")
        let day = CalendarDate(Date(), in: TimeZone(identifier: "UTC")!).adding(days: 210)!
        _ = try server.curl([
            "-X", "POST", "http://127.0.0.1:\(server.port)/v1/me/holidays", "-H", "Authorization: Bearer \(token)",
            "-H", "Content-Type: application/json", "-d", #"{"startDate":"\#(day)","endDate":"\#(day.adding(days: 3)!)"}"#,
        ])
        let status = try await offload { server.stop() }
        #expect(status == 0, "\(server.output)")
        #expect(server.output.components(separatedBy: "e-mail is off (no SG_SMTP_URL)").count == 2, "\(server.output)")
        let database = try AppDatabase.open(path: server.database)
        let configuration = try await database.outboxStore.write { tx in try tx.deliveryConfiguration() }
        #expect(configuration == DeliveryConfiguration(emailEnabled: false, publicURL: ""))
        let messages = try await database.services().delivery.messages()
        #expect(!messages.contains { $0.draft.channel == .email })
    }

    @Test("bad e-mail settings are named with the others; status 2")
    func badSettings() throws {
        let result = try runProduct("sgserver", ["--smtp-url", "imap://mail.example.com"], environment: [
            "SG_PORT": "x", "SG_SMTP_URL": "smtp://mail.example.com", "SG_SMTP_PASSWORD_FILE": "/nonexistent/password",
            "SG_PUBLIC_URL": "holidays.example.com",
        ])
        #expect(result.status == 2)
        #expect(result.stderr == """
            sgserver: invalid configuration:
              - SG_PORT / --port 'x' is not a port number (1-65535)
              - SG_PUBLIC_URL / --public-url 'holidays.example.com' is not an http:// or https:// URL without a query, e.g. https://holidays.example.com
              - SG_SMTP_URL / --smtp-url 'imap://mail.example.com' is not an smtp:// or smtps:// URL with a host (and no user, password or query)
              - SG_MAIL_FROM / --mail-from is missing: the sender of the e-mails, e.g. "SGEmployee <noreply@example.com>"
              - SG_SMTP_PASSWORD_FILE / --smtp-password-file '/nonexistent/password' cannot be read
              - SG_SMTP_PASSWORD_FILE / --smtp-password-file is set but SG_SMTP_USER / --smtp-user is missing

            """)
    }
}
