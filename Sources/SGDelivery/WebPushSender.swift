import Crypto
import Foundation
import SGCore
import _CryptoExtras

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

extension PushSender {

    /// The endpoint's origin, the audience of its VAPID token: `https://host[:port]`.
    static func origin(_ endpoint: String) -> String? {
        guard let url = URLComponents(string: endpoint), url.scheme?.lowercased() == "https", let host = url.host, !host.isEmpty else {
            return nil
        }
        return "https://\(url.percentEncodedHost ?? host)" + (url.port.map { ":\($0)" } ?? "")
    }

    func sendWebPush(
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
