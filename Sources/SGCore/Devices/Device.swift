import Crypto
import Foundation

public enum DevicePlatform: String, Sendable, Codable, CaseIterable {
    /// APNs.
    case ios
    /// Firebase Cloud Messaging.
    case android
    /// A browser's Web Push subscription (RFC 8030).
    case web
}

/// A browser's push subscription as `PushManager.subscribe()` gives it: where to post, and the keys the payload is
/// encrypted for (RFC 8291).
public struct WebPushSubscription: Sendable, Equatable {
    /// The push service's https URL for this browser.
    public var endpoint: String
    /// The browser's P-256 public key, uncompressed (65 bytes), base64url.
    public var p256dh: String
    /// The browser's authentication secret (16 bytes), base64url.
    public var auth: String

    public init(endpoint: String, p256dh: String, auth: String) {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
    }
}

/// A phone, tablet or browser that wants push notifications for an employee.
public struct Device: Sendable, Equatable {
    /// The token APNs or FCM issued; for a browser, `DeviceRules.webToken(endpoint:)`.
    public var token: String
    public var platform: DevicePlatform
    public var createdAt: Date
    public var updatedAt: Date
    /// A browser's subscription (platform `web`), else nil.
    public var subscription: WebPushSubscription?

    public init(token: String, platform: DevicePlatform, createdAt: Date, updatedAt: Date, subscription: WebPushSubscription? = nil) {
        self.token = token
        self.platform = platform
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.subscription = subscription
    }
}

/// An employee's switch per channel of notifications.
public struct NotificationChannels: Sendable, Equatable {
    /// Push to registered devices; off removes the devices.
    public var push: Bool
    /// E-mail of their requests' moves, of requests to decide and of company notices. (Security mail such as a
    /// password reset is sent whatever this says.)
    public var email: Bool

    public init(push: Bool = true, email: Bool = true) {
        self.push = push
        self.email = email
    }
}

/// An employee's notification settings and the devices that will receive them.
public struct NotificationSettings: Sendable, Equatable {
    public var channels: NotificationChannels
    public var devices: [Device]

    public init(channels: NotificationChannels, devices: [Device]) {
        self.channels = channels
        self.devices = devices
    }
}

public enum DeviceRules {
    public static let maximumTokenLength = 4096
    /// Devices kept per employee: a phone, a tablet and a few reinstalls, with room to spare.
    public static let maximumPerEmployee = 10

    /// A push token as APNs and FCM issue them: letters, digits and `-_.:~` (so it can also sit in a URL path).
    public static func token(_ text: String) throws -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:~")
        guard (8...maximumTokenLength).contains(text.count), text.allSatisfy(allowed.contains) else {
            throw SGError.invalid(
                field: "token", message: "8 to \(maximumTokenLength) characters from letters, digits and - _ . : ~ (the token the platform issued)")
        }
        return text
    }

    /// A browser's subscription, checked: an https endpoint (at most `maximumTokenLength` characters), `p256dh` a
    /// base64url P-256 point (on the curve) in uncompressed form (65 bytes, starting 0x04) and `auth` base64url of 16 bytes.
    public static func subscription(endpoint: String, p256dh: String, auth: String) throws -> WebPushSubscription {
        guard endpoint.count <= maximumTokenLength, let url = URLComponents(string: endpoint), url.scheme?.lowercased() == "https",
              let host = url.host, !host.isEmpty, url.user == nil, url.password == nil, url.fragment == nil
        else {
            throw SGError.invalid(field: "subscription.endpoint", message: "an https URL of at most \(maximumTokenLength) characters (the push service's endpoint)")
        }
        guard let key = Base64URL.decode(p256dh), key.count == 65, key.first == 4,
              (try? P256.KeyAgreement.PublicKey(x963Representation: key)) != nil
        else {
            throw SGError.invalid(field: "subscription.keys.p256dh", message: "base64url of the browser's 65-byte uncompressed P-256 public key")
        }
        guard let secret = Base64URL.decode(auth), secret.count == 16 else {
            throw SGError.invalid(field: "subscription.keys.auth", message: "base64url of the browser's 16-byte authentication secret")
        }
        return WebPushSubscription(endpoint: endpoint, p256dh: Base64URL.encode(key), auth: Base64URL.encode(secret))
    }

    /// A web device's token: `web_` and the base64url of the SHA-256 of its endpoint, stable for the subscription
    /// and fit for a URL path (`DELETE /v1/me/devices/{token}`).
    public static func webToken(endpoint: String) -> String {
        "web_" + Base64URL.encode(Array(SHA256.hash(data: Array(endpoint.utf8))))
    }

    public static func platform(_ text: String) throws -> DevicePlatform {
        guard let platform = DevicePlatform(rawValue: text) else {
            throw SGError.invalid(
                field: "platform", message: "'\(text)' is not one of \(DevicePlatform.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return platform
    }
}
