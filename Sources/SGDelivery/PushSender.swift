import Crypto
import Foundation
import SGCore
import _CryptoExtras

/// How the server reaches the push services; a platform left nil is off.
public struct PushConfiguration: Sendable, HoldsSecrets {
    public var apns: APNsConfiguration?
    public var fcm: FCMConfiguration?
    public var webPush: WebPushConfiguration?
    /// PEM file of the CAs that sign the services' certificates, instead of the system's (SG_TLS_CA_FILE).
    public var caFile: String?
    /// Short, so that a dead service does not hold a lane for long.
    public var connectTimeout: TimeInterval
    /// For a whole request, connecting included.
    public var timeout: TimeInterval
    /// Where browsers' Web Push endpoints may be: a browser names its endpoint, so it is checked like a webhook.
    public var destinations: DestinationPolicy

    public init(
        apns: APNsConfiguration? = nil, fcm: FCMConfiguration? = nil, webPush: WebPushConfiguration? = nil, caFile: String? = nil,
        connectTimeout: TimeInterval = 5, timeout: TimeInterval = 15, destinations: DestinationPolicy = .publicOnly
    ) {
        self.apns = apns
        self.fcm = fcm
        self.webPush = webPush
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.destinations = destinations
    }

    /// The platforms configured.
    public var platforms: Set<DevicePlatform> {
        var platforms: Set<DevicePlatform> = []
        if apns != nil { platforms.insert(.ios) }
        if fcm != nil { platforms.insert(.android) }
        if webPush != nil { platforms.insert(.web) }
        return platforms
    }
}

/// APNs' provider API with token authentication.
public struct APNsConfiguration: Sendable, HoldsSecrets {
    /// The .p8 key Apple issued (P-256).
    public var key: P256.Signing.PrivateKey
    public var keyID: String
    public var teamID: String
    /// The app's bundle id.
    public var topic: String
    /// `https://api.push.apple.com` (or the sandbox's), without a trailing slash.
    public var url: String
    /// How long one provider token is used: Apple refuses one older than an hour and one renewed more often than
    /// every 20 minutes.
    public var tokenLifetime: TimeInterval

    public static let defaultURL = "https://api.push.apple.com"

    public init(key: P256.Signing.PrivateKey, keyID: String, teamID: String, topic: String, url: String = defaultURL, tokenLifetime: TimeInterval = 40 * 60) {
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
        self.topic = topic
        self.url = url
        self.tokenLifetime = tokenLifetime
    }
}

/// Firebase Cloud Messaging's HTTP v1 API with a service account.
public struct FCMConfiguration: Sendable, HoldsSecrets {
    public var account: FCMServiceAccount
    /// `https://fcm.googleapis.com`, without a trailing slash.
    public var url: String

    public static let defaultURL = "https://fcm.googleapis.com"

    public init(account: FCMServiceAccount, url: String = defaultURL) {
        self.account = account
        self.url = url
    }
}

/// What the server uses of a Google service account's JSON key file.
public struct FCMServiceAccount: Sendable {
    public var clientEmail: String
    public var privateKey: _RSA.Signing.PrivateKey
    public var tokenURI: String
    public var projectID: String

    public init(clientEmail: String, privateKey: _RSA.Signing.PrivateKey, tokenURI: String, projectID: String) {
        self.clientEmail = clientEmail
        self.privateKey = privateKey
        self.tokenURI = tokenURI
        self.projectID = projectID
    }

    /// Reads the key file's `client_email`, `private_key` (PEM, RSA), `token_uri` and `project_id`; throws a message
    /// naming what is missing or wrong.
    public init(json: Data) throws {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw PushSetupError("is not a JSON object (a service account's key file)")
        }
        func field(_ name: String) throws -> String {
            guard let value = object[name] as? String, !value.isEmpty else { throw PushSetupError("has no \(name)") }
            return value
        }
        let pem = try field("private_key")
        let key: _RSA.Signing.PrivateKey
        do { key = try _RSA.Signing.PrivateKey(pemRepresentation: pem) } catch {
            throw PushSetupError("has a private_key that is not an RSA key in PEM (\(error))")
        }
        let tokenURI = try field("token_uri")
        guard tokenURI.lowercased().hasPrefix("https://") else { throw PushSetupError("has a token_uri that is not https") }
        self.init(clientEmail: try field("client_email"), privateKey: key, tokenURI: tokenURI, projectID: try field("project_id"))
    }
}

/// Web Push (RFC 8030) with VAPID (RFC 8292).
public struct WebPushConfiguration: Sendable, HoldsSecrets {
    /// The server's application key (P-256).
    public var key: P256.Signing.PrivateKey
    /// Who the push services may contact: `mailto:` or `https:` (SG_VAPID_SUBJECT).
    public var subject: String

    public init(key: P256.Signing.PrivateKey, subject: String) {
        self.key = key
        self.subject = subject
    }

    /// The public key in base64url (uncompressed point), as browsers take it for `applicationServerKey`.
    public var publicKey: String { Base64URL.encode(key.publicKey.x963Representation) }
}

extension P256.Signing.PrivateKey {
    /// The P-256 key in the PEM file at `path` (PKCS#8 as Apple's .p8 files, or SEC1 "EC PRIVATE KEY").
    static func read(file path: String) throws -> P256.Signing.PrivateKey {
        guard let data = FileManager.default.contents(atPath: path) else { throw PushSetupError("'\(path)' cannot be read") }
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: String(decoding: data, as: UTF8.self))
        } catch {
            throw PushSetupError("'\(path)' is not a P-256 private key in PEM")
        }
    }
}

extension APNsConfiguration {
    /// With the key read from `keyFile`; throws naming the file when it cannot be read or is no P-256 key.
    public init(keyFile: String, keyID: String, teamID: String, topic: String, url: String = defaultURL) throws {
        self.init(key: try .read(file: keyFile), keyID: keyID, teamID: teamID, topic: topic, url: url)
    }
}

extension FCMConfiguration {
    /// With the service account read from `serviceAccountFile`.
    public init(serviceAccountFile path: String, url: String = defaultURL) throws {
        guard let data = FileManager.default.contents(atPath: path) else { throw PushSetupError("'\(path)' cannot be read") }
        do {
            self.init(account: try FCMServiceAccount(json: data), url: url)
        } catch let error as PushSetupError {
            throw PushSetupError("'\(path)' \(error.description)")
        }
    }
}

extension WebPushConfiguration {
    /// With the key read from `keyFile` (as `sgadmin push vapid-keys` writes it).
    public init(keyFile: String, subject: String) throws {
        self.init(key: try .read(file: keyFile), subject: subject)
    }

    /// A new application key: its PEM (PKCS#8) and its public key in base64url.
    public static func newKey() -> (pem: String, publicKey: String) {
        let key = P256.Signing.PrivateKey()
        return (key.pemRepresentation, Base64URL.encode(key.publicKey.x963Representation))
    }
}

/// A push setting that cannot be used, in words that complete "SG_… FILE …".
public struct PushSetupError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Sends push messages of the outbox to one device each: APNs and FCM over HTTP/2, Web Push encrypted for the
/// browser. Provider tokens (APNs), access tokens (FCM) and VAPID tokens are made once and reused by every lane
/// until shortly before they expire.
public struct PushSender: Sendable {
    public let configuration: PushConfiguration
    private let apnsTokens = CachedTokens()
    private let fcmTokens = CachedTokens()
    private let vapidTokens = CachedTokens()

    public init(configuration: PushConfiguration) {
        self.configuration = configuration
    }

    public func send(_ message: OutboxMessage, to device: Device, at now: Date, on lane: CurlLane) async -> DeliveryOutcome {
        guard let notification = PushNotification(json: message.draft.body) else {
            return .permanentFailure("the message's body is not a push notification")
        }
        switch device.platform {
        case .ios:
            guard let apns = configuration.apns else { return .temporaryFailure("APNs is off on this server") }
            return await sendAPNs(message, notification, token: device.token, apns, at: now, on: lane)
        case .android:
            guard let fcm = configuration.fcm else { return .temporaryFailure("FCM is off on this server") }
            return await sendFCM(notification, token: device.token, fcm, at: now, on: lane)
        case .web:
            guard let webPush = configuration.webPush else { return .temporaryFailure("Web Push is off on this server") }
            guard let subscription = device.subscription else { return .permanentFailure("the web device has no subscription") }
            return await sendWebPush(message, notification, subscription, webPush, at: now, on: lane)
        }
    }

    /// A POST to a push service; `guarded` for an address a browser named (its Web Push endpoint).
    private func post(_ url: String, headers: [String], body: [UInt8], guarded: Bool = false) -> CurlRequest {
        CurlRequest(
            url: url, protocols: "https", kind: .httpPost(headers: headers), body: body, caFile: configuration.caFile,
            connectTimeout: configuration.connectTimeout, timeout: configuration.timeout, responseLimit: 4096, http2: true,
            destinations: guarded ? configuration.destinations : nil)
    }

    /// The answer's JSON object, or an empty one.
    private static func json(_ response: CurlResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    private static func reason(_ service: String, _ response: CurlResponse, _ detail: String?) -> String {
        "\(service) answered \(response.responseCode)" + (detail.map { ": \($0)" } ?? "")
    }

    private static func retryLater(_ reason: String, _ response: CurlResponse, at now: Date) -> DeliveryOutcome {
        .temporaryFailure(reason, retryAfter: response.retryAfter.flatMap { WebhookSender.retryAfter($0, now: now) })
    }

    private static func body(_ object: [String: Any]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data())
    }

    // MARK: APNs

    /// A stable UUID for the message (APNs' `apns-id`): the same on every attempt.
    static func apnsID(_ message: OutboxMessage) -> String {
        var bytes = Array(SHA256.hash(data: Array(message.deliveryID.utf8)).prefix(16))
        // Version 8 (custom), RFC 9562 variant.
        bytes[6] = (bytes[6] & 0x0f) | 0x80
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex[hex.index(hex.startIndex, offsetBy: range.lowerBound)..<hex.index(hex.startIndex, offsetBy: range.upperBound)])
        }
        return parts.joined(separator: "-")
    }

    private func sendAPNs(
        _ message: OutboxMessage, _ notification: PushNotification, token: String, _ apns: APNsConfiguration, at now: Date,
        on lane: CurlLane, renewed: Bool = false
    ) async -> DeliveryOutcome {
        let jwt: String
        if let held = await apnsTokens.current(at: now) {
            jwt = held
        } else {
            do {
                jwt = try JWT.es256(
                    header: ["kid": .text(apns.keyID)],
                    claims: ["iss": .text(apns.teamID), "iat": .number(Int64(now.timeIntervalSince1970))], key: apns.key)
            } catch {
                return .temporaryFailure("cannot sign the APNs provider token: \(error)")
            }
            await apnsTokens.keep(jwt, until: now.addingTimeInterval(apns.tokenLifetime))
        }
        var payload: [String: Any] = [
            "aps": ["alert": ["title": notification.title, "body": notification.body], "sound": "default"],
            "event": notification.event,
        ]
        var headers = [
            "authorization: bearer \(jwt)", "apns-topic: \(apns.topic)", "apns-push-type: alert", "apns-priority: 10",
            "apns-id: \(Self.apnsID(message))", "apns-expiration: \(Int64(message.giveUpAt.timeIntervalSince1970))",
            "content-type: application/json",
        ]
        if let request = notification.requestId {
            payload["requestId"] = request
            // A later move of the same request replaces this one on the device.
            headers.append("apns-collapse-id: request-\(request)")
        }
        let path = token.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? token
        let response = await lane.perform(post("\(apns.url)/3/device/\(path)", headers: headers, body: Self.body(payload)))
        guard response.completed else { return .temporaryFailure("APNs: \(response.failure)") }
        let reason = Self.json(response)["reason"] as? String
        let words = Self.reason("APNs", response, reason)
        switch (response.responseCode, reason) {
        case (200, _):
            return .delivered
        case (410, _), (400, "BadDeviceToken"):
            return .gone(words)
        case (403, "ExpiredProviderToken") where !renewed:
            await apnsTokens.discard(jwt)
            return await sendAPNs(message, notification, token: token, apns, at: now, on: lane, renewed: true)
        case (403, _), (429, _), (500...599, _):
            // 403: the key, team or topic is refused: the server's configuration, which an operator's fix mends.
            return Self.retryLater(words, response, at: now)
        default:
            return .permanentFailure(words)
        }
    }

    // MARK: FCM

    static let fcmScope = "https://www.googleapis.com/auth/firebase.messaging"

    /// An OAuth access token for the service account: the one held, or a new one for a signed assertion.
    private func fcmAccessToken(_ fcm: FCMConfiguration, at now: Date, on lane: CurlLane) async -> Result<String, PushSetupError> {
        if let held = await fcmTokens.current(at: now) { return .success(held) }
        let account = fcm.account
        let issued = Int64(now.timeIntervalSince1970)
        let assertion: String
        do {
            assertion = try JWT.rs256(
                claims: [
                    "iss": .text(account.clientEmail), "scope": .text(Self.fcmScope), "aud": .text(account.tokenURI),
                    "iat": .number(issued), "exp": .number(issued + 3600),
                ],
                key: account.privateKey)
        } catch {
            return .failure(PushSetupError("cannot sign the FCM assertion: \(error)"))
        }
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"
        let response = await lane.perform(post(
            account.tokenURI, headers: ["Content-Type: application/x-www-form-urlencoded", "Accept: application/json"],
            body: Array(form.utf8)))
        guard response.completed else { return .failure(PushSetupError("FCM access token: \(response.failure)")) }
        let answer = Self.json(response)
        guard response.responseCode == 200, let token = answer["access_token"] as? String, !token.isEmpty else {
            let detail = (answer["error_description"] ?? answer["error"]).map { "\($0)" }
            return .failure(PushSetupError("FCM access token: " + Self.reason("the token endpoint", response, detail)))
        }
        let lifetime = (answer["expires_in"] as? NSNumber)?.doubleValue ?? 3600
        // Renewed five minutes before it ends (or at half its life, when it is short).
        await fcmTokens.keep(token, until: now.addingTimeInterval(max(lifetime / 2, lifetime - 300)))
        return .success(token)
    }

    private func sendFCM(
        _ notification: PushNotification, token: String, _ fcm: FCMConfiguration, at now: Date, on lane: CurlLane, renewed: Bool = false
    ) async -> DeliveryOutcome {
        let access: String
        switch await fcmAccessToken(fcm, at: now, on: lane) {
        case .success(let token): access = token
        case .failure(let error): return .temporaryFailure(error.description)
        }
        var data = ["event": notification.event]
        var fcmMessage: [String: Any] = ["token": token, "notification": ["title": notification.title, "body": notification.body]]
        if let request = notification.requestId {
            data["requestId"] = String(request)
            fcmMessage["android"] = ["collapse_key": "request-\(request)"]
        }
        fcmMessage["data"] = data
        let response = await lane.perform(post(
            "\(fcm.url)/v1/projects/\(fcm.account.projectID)/messages:send",
            headers: ["Authorization: Bearer \(access)", "Content-Type: application/json"], body: Self.body(["message": fcmMessage])))
        guard response.completed else { return .temporaryFailure("FCM: \(response.failure)") }
        let error = Self.json(response)["error"] as? [String: Any] ?? [:]
        let details = error["details"] as? [[String: Any]] ?? []
        let code = details.compactMap { $0["errorCode"] as? String }.first
        let onToken = details.contains { detail in
            (detail["fieldViolations"] as? [[String: Any]] ?? []).contains { $0["field"] as? String == "message.token" }
        }
        let words = Self.reason("FCM", response, [code ?? error["status"] as? String, error["message"] as? String].compactMap { $0 }.joined(separator: " ").nilIfEmpty)
        switch response.responseCode {
        case 200:
            return .delivered
        // Only an answer about the token removes the device: a 404 for a wrong project or URL must not.
        case 404 where code == "UNREGISTERED", 400 where code == "UNREGISTERED" || onToken:
            return .gone(words)
        case 401 where !renewed:
            await fcmTokens.discard(access)
            return await sendFCM(notification, token: token, fcm, at: now, on: lane, renewed: true)
        case 401, 429, 500...599:
            return Self.retryLater(words, response, at: now)
        default:
            return .permanentFailure(words)
        }
    }

    // MARK: Web Push

    /// The endpoint's origin, the audience of its VAPID token: `https://host[:port]`.
    static func origin(_ endpoint: String) -> String? {
        guard let url = URLComponents(string: endpoint), url.scheme?.lowercased() == "https", let host = url.host, !host.isEmpty else {
            return nil
        }
        return "https://\(url.percentEncodedHost ?? host)" + (url.port.map { ":\($0)" } ?? "")
    }

    private func sendWebPush(
        _ message: OutboxMessage, _ notification: PushNotification, _ subscription: WebPushSubscription, _ webPush: WebPushConfiguration,
        at now: Date, on lane: CurlLane
    ) async -> DeliveryOutcome {
        guard let origin = Self.origin(subscription.endpoint) else {
            return .permanentFailure("the subscription's endpoint is not an https URL")
        }
        let jwt: String
        if let held = await vapidTokens.current(origin, at: now) {
            jwt = held
        } else {
            do {
                jwt = try JWT.es256(
                    claims: [
                        "aud": .text(origin), "exp": .number(Int64(now.timeIntervalSince1970) + 12 * 3600), "sub": .text(webPush.subject),
                    ],
                    key: webPush.key)
            } catch {
                return .temporaryFailure("cannot sign the VAPID token: \(error)")
            }
            await vapidTokens.keep(jwt, origin, until: now.addingTimeInterval(11 * 3600))
        }
        let payload: [UInt8]
        do {
            guard let p256dh = Base64URL.decode(subscription.p256dh), let auth = Base64URL.decode(subscription.auth) else {
                return .permanentFailure("the subscription's keys are not base64url")
            }
            payload = try WebPushEncryption.encrypt(Array(notification.json.utf8), p256dh: p256dh, auth: auth)
        } catch {
            return .permanentFailure("the payload cannot be encrypted for the subscription's key: \(error)")
        }
        var headers = [
            "Authorization: vapid t=\(jwt), k=\(webPush.publicKey)", "Content-Encoding: aes128gcm",
            "Content-Type: application/octet-stream",
            "TTL: \(max(0, Int64(message.giveUpAt.timeIntervalSince(now))))", "Urgency: normal",
        ]
        // A later move of the same request replaces this one while it waits at the push service.
        if let request = notification.requestId { headers.append("Topic: request-\(request)") }
        let response = await lane.perform(post(subscription.endpoint, headers: headers, body: payload, guarded: true))
        if let refused = response.refusedDestination { return .permanentFailure("Web Push: \(refused)") }
        guard response.completed else { return .temporaryFailure("Web Push: \(response.failure)") }
        let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
        let words = Self.reason("the push service", response, text.nilIfEmpty)
        switch response.responseCode {
        case 200...299: return .delivered
        case 404, 410: return .gone(words)
        case 401, 403, 429, 500...599: return Self.retryLater(words, response, at: now)
        default: return .permanentFailure(words)
        }
    }
}

/// The payload of a Web Push message, encrypted for the browser's key (RFC 8291) in the aes128gcm content coding
/// (RFC 8188): one record, its header carrying the salt, the record size and the server's ephemeral public key.
enum WebPushEncryption {
    static let recordSize: UInt32 = 4096

    static func encrypt(
        _ plaintext: [UInt8], p256dh: [UInt8], auth: [UInt8], ephemeral: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey(),
        salt: [UInt8] = Digests.randomBytes(16)
    ) throws -> [UInt8] {
        guard plaintext.count + 17 <= Int(recordSize) else { throw PushSetupError("the payload is too long for one record") }
        let browserKey = try P256.KeyAgreement.PublicKey(x963Representation: p256dh)
        let secret = try ephemeral.sharedSecretFromKeyAgreement(with: browserKey)
        let serverPublic = Array(ephemeral.publicKey.x963Representation)
        // RFC 8291 §3.4: the input keying material from the ECDH secret and the browser's auth secret.
        let keyInfo = Array("WebPush: info".utf8) + [0] + p256dh + serverPublic
        let ikm = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: secret.withUnsafeBytes { Array($0) }), salt: auth, info: keyInfo, outputByteCount: 32)
        // RFC 8188 §2.2, 2.3: the content-encryption key and the nonce.
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: aes128gcm".utf8) + [0], outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: nonce".utf8) + [0], outputByteCount: 12)
        // The last (and only) record ends with the delimiter 0x02.
        let sealed = try AES.GCM.seal(plaintext + [2], using: key, nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Array($0) }))
        let size = recordSize
        let header = salt + [UInt8(size >> 24), UInt8(size >> 16 & 0xff), UInt8(size >> 8 & 0xff), UInt8(size & 0xff)]
            + [UInt8(serverPublic.count)] + serverPublic
        return header + Array(sealed.ciphertext) + Array(sealed.tag)
    }
}

extension String {
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
