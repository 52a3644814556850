import Crypto
import Foundation
import SGCore
import SGDelivery
import SGTestSupport

/// The keys a push test uses: APNs' .p8, a service account's (RSA, made by openssl as Google makes them), the
/// server's VAPID key and a browser's subscription keys. Made once per run.
struct PushKeys: Sendable {
    let folder: URL
    let apnsKeyFile: String
    let rsaKeyPEM: String
    let vapidKeyFile: String

    static let apnsKeyID = "ABC123DEFG"
    static let teamID = "DEF123GHIJ"
    static let topic = "com.example.sgemployee"
    static let projectID = "sg-test"
    static let clientEmail = "push@sg-test.iam.gserviceaccount.com"
    static let subject = "mailto:ops@sgemployee.test"

    static let shared: Result<PushKeys, TestSetupError> = {
        do {
            let folder = try Harness.temporaryFolder("sg-push-keys")
            let apns = folder.appendingPathComponent("AuthKey.p8")
            try P256.Signing.PrivateKey().pemRepresentation.write(to: apns, atomically: true, encoding: .utf8)
            let rsa = folder.appendingPathComponent("rsa.pem")
            try runTool("/usr/bin/env", ["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", rsa.path])
            let vapid = folder.appendingPathComponent("vapid.pem")
            try WebPushConfiguration.newKey().pem.write(to: vapid, atomically: true, encoding: .utf8)
            return .success(PushKeys(
                folder: folder, apnsKeyFile: apns.path, rsaKeyPEM: try String(contentsOf: rsa, encoding: .utf8), vapidKeyFile: vapid.path))
        } catch {
            return .failure(TestSetupError("cannot make the push keys: \(error)"))
        }
    }()
}

/// A browser's push subscription: its keys, kept for the stand-in to decrypt with.
struct TestBrowser: Sendable {
    let name: String
    let keyFile: String
    let p256dh: String
    let auth: String

    init(name: String, folder: URL) throws {
        let key = P256.KeyAgreement.PrivateKey()
        let file = folder.appendingPathComponent("browser-\(name).pem")
        try key.pemRepresentation.write(to: file, atomically: true, encoding: .utf8)
        self.name = name
        keyFile = file.path
        p256dh = Base64URL.encode(key.publicKey.x963Representation)
        auth = Base64URL.encode(Digests.randomBytes(16))
    }

    func subscription(_ server: TestPushServer) -> WebPushSubscription {
        WebPushSubscription(endpoint: server.url("/push/\(name)"), p256dh: p256dh, auth: auth)
    }
}

/// scripts/delivery/push_server.py on 127.0.0.1: APNs, FCM and a Web Push service over HTTP/2 and TLS, checking
/// tokens, signatures and encryption as the real ones do.
final class TestPushServer: @unchecked Sendable {
    static let script = Harness.repository.appendingPathComponent("scripts/delivery/push_server.py").path

    let folder: URL
    let port: Int
    let accountFile: String
    private let process: ServerProcess

    private init(folder: URL, port: Int, accountFile: String) {
        self.folder = folder
        self.port = port
        self.accountFile = accountFile
        process = ServerProcess(log: folder.appendingPathComponent("push.log"))
    }

    /// `routes`: device token, FCM token or subscription name → behaviour (see the script).
    static func start(routes: [String: String] = [:], browsers: [TestBrowser] = [], fcmExpiresIn: Int = 3600) async throws -> TestPushServer {
        try Harness.checkAvailable()
        let keys = try PushKeys.shared.get()
        let (cert, key) = try Harness.certificate.get()
        let folder = try Harness.temporaryFolder("sg-push")
        var lastError: (any Error)?
        for _ in 0..<3 {
            let port = freePort()
            let account = folder.appendingPathComponent("service-account-\(port).json")
            let json: [String: String] = [
                "type": "service_account", "project_id": PushKeys.projectID, "private_key": keys.rsaKeyPEM,
                "client_email": PushKeys.clientEmail, "token_uri": "https://127.0.0.1:\(port)/token",
            ]
            try JSONSerialization.data(withJSONObject: json).write(to: account)
            let server = TestPushServer(folder: folder, port: port, accountFile: account.path)
            var arguments = [
                script, "--port", String(port), "--cert", cert, "--key", key,
                "--log", folder.appendingPathComponent("requests.jsonl").path,
                "--apns-key", keys.apnsKeyFile, "--apns-key-id", PushKeys.apnsKeyID, "--apns-team-id", PushKeys.teamID,
                "--apns-topic", PushKeys.topic,
                "--fcm-account", account.path, "--fcm-token-uri", "https://127.0.0.1:\(port)/token",
                "--fcm-expires-in", String(fcmExpiresIn),
                "--vapid-key", keys.vapidKeyFile, "--vapid-subject", PushKeys.subject,
            ]
            for (name, behaviour) in routes.sorted(by: { $0.key < $1.key }) { arguments += ["--route", "\(name)=\(behaviour)"] }
            for browser in browsers { arguments += ["--subscription", "\(browser.name)=\(browser.keyFile):\(browser.auth)"] }
            let command = arguments
            do {
                try await offload { try server.process.start(Harness.python, command, ports: [port], timeout: 30) }
                return server
            } catch {
                lastError = error
            }
        }
        throw lastError!
    }

    func url(_ path: String) -> String { "https://127.0.0.1:\(port)\(path)" }

    /// What the server uses to reach this one: every platform, the test CA, short time-outs.
    func configuration(timeout: TimeInterval = 5) throws -> PushConfiguration {
        let keys = try PushKeys.shared.get()
        return PushConfiguration(
            apns: try APNsConfiguration(
                keyFile: keys.apnsKeyFile, keyID: PushKeys.apnsKeyID, teamID: PushKeys.teamID, topic: PushKeys.topic, url: url("")),
            fcm: try FCMConfiguration(serviceAccountFile: accountFile, url: url("")),
            webPush: try WebPushConfiguration(keyFile: keys.vapidKeyFile, subject: PushKeys.subject),
            caFile: try Harness.certificate.get().cert, connectTimeout: 2, timeout: timeout, destinations: .testServers)
    }

    /// One JSON object per request received.
    var requests: [[String: Any]] { Harness.jsonLines(folder.appendingPathComponent("requests.jsonl")) }

    func requests(_ service: String, key: String? = nil) -> [[String: Any]] {
        requests.filter { $0["service"] as? String == service && (key == nil || $0["key"] as? String == key) }
    }

    func shutdown() async {
        try? await offload { self.process.stop() }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A worker that sends push (and webhooks) with `push`, polling every 50 ms.
func pushWorker(_ delivery: DeliveryService, push: PushConfiguration, lanes: Int = 4) -> DeliveryWorker {
    DeliveryWorker(
        delivery: delivery, email: nil, push: PushSender(configuration: push),
        options: .init(lanes: lanes, pollInterval: .milliseconds(50)), logger: .quiet)
}
