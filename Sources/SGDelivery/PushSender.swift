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
    let apnsTokens = CachedTokens()
    let fcmTokens = CachedTokens()
    let vapidTokens = CachedTokens()

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
    func post(_ url: String, headers: [String], body: [UInt8], guarded: Bool = false) -> CurlRequest {
        CurlRequest(
            url: url, protocols: "https", kind: .httpPost(headers: headers), body: body, caFile: configuration.caFile,
            connectTimeout: configuration.connectTimeout, timeout: configuration.timeout, responseLimit: 4096, http2: true,
            destinations: guarded ? configuration.destinations : nil)
    }

    /// The answer's JSON object, or an empty one.
    static func json(_ response: CurlResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    static func reason(_ service: String, _ response: CurlResponse, _ detail: String?) -> String {
        "\(service) answered \(response.responseCode)" + (detail.map { ": \($0)" } ?? "")
    }

    static func retryLater(_ reason: String, _ response: CurlResponse, at now: Date) -> DeliveryOutcome {
        .temporaryFailure(reason, retryAfter: response.retryAfter.flatMap { WebhookSender.retryAfter($0, now: now) })
    }

    static func body(_ object: [String: Any]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data())
    }

}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
