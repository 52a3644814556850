import Foundation
import Logging
import SGCore
import SGDelivery
import SGStore
import SGTestSupport
import ServiceLifecycle
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Python side of the tests: aiosmtpd and the webhook receiver of scripts/delivery, run with the interpreter of
/// the repository's .venv (scripts/venv.sh makes it; scripts/test.sh runs that first).
enum Harness {
    static let repository = Venv.repository
    static let python = Venv.python
    static let smtpScript = repository.appendingPathComponent("scripts/delivery/smtp_server.py").path
    static let receiverScript = repository.appendingPathComponent("scripts/delivery/webhook_receiver.py").path

    static var isCI: Bool { Venv.isCI }
    static var isAvailable: Bool { Venv.isAvailable }
    /// The suites that need the servers run when they can, and under CI always (to fail when they cannot).
    static var shouldRun: Bool { Venv.shouldRun }

    static func checkAvailable() throws { try Venv.checkAvailable() }

    /// A self-signed certificate for 127.0.0.1 and localhost (valid two days, made again after one): the test SMTP
    /// server's, and the CA file its clients trust. Kept in one temporary folder for every test run.
    static let certificate: Result<(cert: String, key: String), TestSetupError> = {
        let files = FileManager.default
        let folder = files.temporaryDirectory.appendingPathComponent("sg-delivery-tls")
        let cert = folder.appendingPathComponent("cert.pem").path
        let key = folder.appendingPathComponent("key.pem").path
        if let made = (try? files.attributesOfItem(atPath: cert))?[.modificationDate] as? Date,
           Date().timeIntervalSince(made) < 86_400, files.fileExists(atPath: key)
        {
            return .success((cert, key))
        }
        do {
            // Made aside and moved in, key first, so that a run starting meanwhile never reads half a pair.
            let fresh = try temporaryFolder("sg-delivery-tls-new")
            defer { try? files.removeItem(at: fresh) }
            try runTool("/usr/bin/env", [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
                "-keyout", fresh.appendingPathComponent("key.pem").path, "-out", fresh.appendingPathComponent("cert.pem").path,
            ])
            try files.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in ["key.pem", "cert.pem"] {
                guard rename(fresh.appendingPathComponent(name).path, folder.appendingPathComponent(name).path) == 0 else {
                    throw TestSetupError("cannot move \(name) into \(folder.path): errno \(errno)")
                }
            }
            return .success((cert, key))
        } catch {
            return .failure(TestSetupError("openssl could not make the test certificate: \(error)"))
        }
    }()

    static func temporaryFolder(_ prefix: String) throws -> URL { try Venv.temporaryFolder(prefix) }

    /// JSON lines of `file` as objects (none when the file is missing).
    static func jsonLines(_ file: URL) -> [[String: Any]] { Venv.jsonLines(file) }
}

/// aiosmtpd on 127.0.0.1 (scripts/delivery/smtp_server.py): STARTTLS (or implicit TLS) with the test certificate,
/// AUTH with `user` and `password`, every accepted message written to `folder`.
final class TestSMTPServer: @unchecked Sendable {
    static let user = "mailer"
    static let password = "s3cret pässword"

    let folder: URL
    let port: Int
    let arguments: [String]
    private let process: ServerProcess

    var url: String { "smtp://127.0.0.1:\(port)" }
    var smtpsURL: String { "smtps://127.0.0.1:\(port)" }

    private init(folder: URL, port: Int, arguments: [String]) {
        self.folder = folder
        self.port = port
        self.arguments = arguments
        process = ServerProcess(log: folder.appendingPathComponent("server.log"))
    }

    /// `reject`: answered 550; `defer`: address → how many 451s first.
    static func start(
        smtps: Bool = false, auth: Bool = true, reject: [String] = [], defer deferred: [String: Int] = [:]
    ) async throws -> TestSMTPServer {
        try Harness.checkAvailable()
        let (cert, _) = try Harness.certificate.get()
        let folder = try Harness.temporaryFolder("sg-smtp")
        var arguments = [Harness.smtpScript, "--dir", folder.appendingPathComponent("mail").path]
        arguments += ["--tls-dir", URL(fileURLWithPath: cert).deletingLastPathComponent().path]
        if smtps { arguments.append("--smtps") }
        if auth { arguments += ["--user", user, "--password", password] }
        for address in reject { arguments += ["--reject", address] }
        for (address, count) in deferred { arguments += ["--defer", "\(address)=\(count)"] }
        var lastError: (any Error)?
        for _ in 0..<3 {
            let server = TestSMTPServer(folder: folder, port: freePort(), arguments: arguments)
            do {
                try await offload { try server.launchNow() }
                return server
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }

    private func launchNow() throws {
        try process.start(Harness.python, arguments + ["--port", String(port)], ports: [port], timeout: 20)
    }

    /// Starts again on the same port, keeping what was received.
    func launch() async throws { try await offload { try self.launchNow() } }

    func stop() async { try? await offload { self.process.stop() } }

    func shutdown() async {
        await stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// One JSON object per accepted message, as the server's e-mail parser read it.
    var messages: [[String: Any]] { Harness.jsonLines(folder.appendingPathComponent("mail/messages.jsonl")) }
    /// One JSON object per RCPT TO answered.
    var events: [[String: Any]] { Harness.jsonLines(folder.appendingPathComponent("mail/events.jsonl")) }

    /// The raw bytes of an accepted message.
    func raw(_ message: [String: Any]) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("mail/\(message["file"] as? String ?? "")"), encoding: .utf8)
    }

    /// The SMTP configuration that reaches this server over STARTTLS (or TLS) with AUTH.
    func configuration(from: String = "SGEmployee <noreply@sgemployee.test>") throws -> SMTPConfiguration {
        SMTPConfiguration(
            url: arguments.contains("--smtps") ? smtpsURL : url, username: Self.user, password: Self.password,
            from: MailAddress(parsing: from)!, caFile: try Harness.certificate.get().cert, connectTimeout: 2, timeout: 10)
    }
}

/// scripts/delivery/webhook_receiver.py on 127.0.0.1, checking signatures with `secret`.
final class TestWebhookReceiver: @unchecked Sendable {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    let folder: URL
    let port: Int
    private let process: ServerProcess

    private init(folder: URL, port: Int) {
        self.folder = folder
        self.port = port
        process = ServerProcess(log: folder.appendingPathComponent("receiver.log"))
    }

    /// `routes`: path → behaviour (ok, fail-then-ok, gone, throttle-then-ok, throttle-date-then-ok, hang, status:N).
    static func start(routes: [String: String]) async throws -> TestWebhookReceiver {
        try Harness.checkAvailable()
        let folder = try Harness.temporaryFolder("sg-webhooks")
        var lastError: (any Error)?
        for _ in 0..<3 {
            let receiver = TestWebhookReceiver(folder: folder, port: freePort())
            var arguments = [
                Harness.receiverScript, "--port", String(receiver.port), "--secret", secret,
                "--log", folder.appendingPathComponent("deliveries.jsonl").path,
            ]
            for (path, behaviour) in routes.sorted(by: { $0.key < $1.key }) { arguments += ["--route", "\(path)=\(behaviour)"] }
            let command = arguments
            do {
                try await offload { try receiver.process.start(Harness.python, command, ports: [receiver.port], timeout: 20) }
                return receiver
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// One JSON object per request received.
    var deliveries: [[String: Any]] { Harness.jsonLines(folder.appendingPathComponent("deliveries.jsonl")) }

    func deliveries(to path: String) -> [[String: Any]] { deliveries.filter { $0["path"] as? String == path } }

    func shutdown() async {
        try? await offload { self.process.stop() }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Waits until `condition` holds, checking every 50 ms for at most `seconds`; fails the test (throws) if it never
/// does.
func waitUntil(
    within seconds: Double, _ what: @autoclosure () -> String = "", _ condition: () async throws -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    guard try await eventually(within: seconds, condition) else {
        let message = "not within \(seconds) s" + (what().isEmpty ? "" : ": " + what())
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        throw TestSetupError(message)
    }
}

/// Waits until `condition` holds, checking every 50 ms for at most `seconds`; says whether it held.
func eventually(within seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}

extension Logger {
    /// Warnings and worse only, so the test output stays readable.
    static var quiet: Logger {
        var logger = Logger(label: "sgdelivery.tests")
        logger.logLevel = ProcessInfo.processInfo.environment["SG_TEST_LOG"] == "1" ? .debug : .critical
        return logger
    }
}

/// A company on a database file with the clock at this instant, the outbox announcing e-mail and links, and a
/// worker's services on the system's clock with short retry waits.
struct DeliveryFixture: Sendable {
    let path: TemporaryDatabasePath
    let fixture: Fixture
    /// Short waits, so a retry comes within a second; a short lease, so a dead worker's messages come back soon.
    static let policy = RetryPolicy(firstDelay: 0.2, maximumDelay: 0.5, lease: 3)

    var database: AppDatabase { fixture.database }
    var services: CoreServices { fixture.services }

    static func make(emailEnabled: Bool = true) async throws -> DeliveryFixture {
        let path = TemporaryDatabasePath()
        let now = Date()
        let fixture = try await Fixture.make(path: path.path, today: CalendarDate(now, in: TimeZone(identifier: "UTC")!))
        fixture.clock.set(now)
        try await fixture.services.delivery.announce(
            DeliveryConfiguration(emailEnabled: emailEnabled, publicURL: "https://holidays.example.com"))
        return DeliveryFixture(path: path, fixture: fixture)
    }

    /// The core's delivery service as a worker uses it: the system's clock, `policy`, and (with `separateFile`) a
    /// database opened again on the same file, as another process would.
    func delivery(policy: RetryPolicy = DeliveryFixture.policy, separateFile: Bool = false) throws -> DeliveryService {
        let database = separateFile ? try AppDatabase.open(path: path.path) : database
        return database.services(clock: SystemClock(), retryPolicy: policy).delivery
    }

    /// Writes a message straight into the outbox, due now.
    @discardableResult
    func enqueue(_ draft: OutboxDraft) async throws -> Int64 {
        let now = Date()
        return try await database.outboxStore.write { tx in
            try tx.enqueue(draft, at: now)
            return try tx.outboxMessages(status: nil, afterID: nil, limit: 1000).last!.id
        }
    }

    func email(to address: String, name: String = "Test Person", subject: String = "Hello", body: String = "Hello.\n") -> OutboxDraft {
        OutboxDraft(channel: .email, event: .noticePublished, address: address, recipientName: name, subject: subject, body: body)
    }

    /// A subscription signed with the receiver's secret.
    func subscribe(_ url: String, format: WebhookFormat = .standard, privateDetails: Bool = false) async throws -> WebhookSubscription {
        let now = Date()
        return try await database.webhookStore.write { tx in
            try tx.insertWebhook(
                url: url, events: DeliveryEvent.subscribable, format: format, privateDetails: privateDetails, secret: TestWebhookReceiver.secret,
                at: now)
        }
    }

    func webhook(_ subscription: WebhookSubscription, body: String = #"{"type":"test"}"#) -> OutboxDraft {
        OutboxDraft(channel: .webhook, event: .noticePublished, webhookID: subscription.id, address: subscription.url, body: body)
    }

    func message(_ id: Int64) async throws -> OutboxMessage {
        try await services.delivery.message(id: id)
    }

    func counts() async throws -> [OutboxStatus: Int] {
        try await services.delivery.counts()
    }

    func cleanUp() { path.cleanUp() }
}

/// Runs `workers` in a service group for `body`, then shuts the group down gracefully and waits for it.
func running<T>(_ workers: [DeliveryWorker], _ body: () async throws -> T) async throws -> T {
    let group = ServiceGroup(configuration: .init(services: workers, logger: .quiet))
    let task = Task { try await group.run() }
    do {
        let result = try await body()
        await group.triggerGracefulShutdown()
        try await task.value
        return result
    } catch {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        throw error
    }
}

/// A worker polling every 50 ms.
func worker(
    _ delivery: DeliveryService, smtp: SMTPConfiguration?,
    webhooks: WebhookConfiguration = WebhookConfiguration(connectTimeout: 2, timeout: 4, destinations: .testServers),
    owner: String = DeliveryWorker.uniqueOwner(), lanes: Int = 4
) -> DeliveryWorker {
    DeliveryWorker(
        delivery: delivery, email: smtp.map(SMTPSender.init(configuration:)), webhooks: WebhookSender(configuration: webhooks),
        options: .init(owner: owner, lanes: lanes, pollInterval: .milliseconds(50)), logger: .quiet)
}
