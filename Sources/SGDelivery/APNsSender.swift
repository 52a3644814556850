import Crypto
import Foundation
import SGCore
import _CryptoExtras

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

extension APNsConfiguration {
    /// With the key read from `keyFile`; throws naming the file when it cannot be read or is no P-256 key.
    public init(keyFile: String, keyID: String, teamID: String, topic: String, url: String = defaultURL) throws {
        self.init(key: try .read(file: keyFile), keyID: keyID, teamID: teamID, topic: topic, url: url)
    }
}

extension PushSender {

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

    func sendAPNs(
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

}
