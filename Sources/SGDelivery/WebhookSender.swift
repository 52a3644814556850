import Crypto
import Foundation
import SGCore

/// How webhooks are posted.
public struct WebhookConfiguration: Sendable, Equatable {
    /// PEM file of the CAs that sign the endpoints' certificates, instead of the system's.
    public var caFile: String?
    /// Short, so that a dead endpoint does not hold a lane for long.
    public var connectTimeout: TimeInterval
    /// For a whole request, connecting included.
    public var timeout: TimeInterval
    /// The internal addresses the endpoints may be at (none unless allowed).
    public var destinations: DestinationPolicy

    public init(
        caFile: String? = nil, connectTimeout: TimeInterval = 5, timeout: TimeInterval = 15, destinations: DestinationPolicy = .publicOnly
    ) {
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.destinations = destinations
    }
}

/// Posts outbox webhooks, signed as Standard Webhooks says: `webhook-id` (the message's delivery id, the same on
/// every attempt), `webhook-timestamp` (this attempt, Unix seconds) and `webhook-signature`
/// (`v1,` + base64 of HMAC-SHA256 over "id.timestamp.body" keyed with the subscription's secret). Slack-format
/// subscriptions get the same request; Slack ignores the signature.
public struct WebhookSender: Sendable {
    public let configuration: WebhookConfiguration

    public init(configuration: WebhookConfiguration = WebhookConfiguration()) {
        self.configuration = configuration
    }

    public func send(
        _ message: OutboxMessage, secret: String, at now: Date, on lane: CurlLane
    ) async -> DeliveryOutcome {
        let id = message.deliveryID
        let timestamp = String(Int64(now.timeIntervalSince1970.rounded(.down)))
        let body = Array(message.draft.body.utf8)
        let response = await lane.perform(CurlRequest(
            url: message.draft.address, protocols: "http,https",
            kind: .httpPost(headers: [
                "Content-Type: application/json",
                "webhook-id: \(id)",
                "webhook-timestamp: \(timestamp)",
                "webhook-signature: \(Self.signature(id: id, timestamp: timestamp, body: body, secret: secret))",
            ]),
            body: body, caFile: configuration.caFile, connectTimeout: configuration.connectTimeout,
            timeout: configuration.timeout, responseLimit: 2048, destinations: configuration.destinations))
        return Self.outcome(response, at: now)
    }

    /// `v1,<base64 HMAC-SHA256(key, "id.timestamp.body")>`, the key being the base64 after `whsec_` (a secret
    /// without that form is used as its UTF-8 bytes).
    public static func signature(id: String, timestamp: String, body: [UInt8], secret: String) -> String {
        let key = secret.hasPrefix("whsec_") ? Data(base64Encoded: String(secret.dropFirst(6))) : nil
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: key ?? Data(secret.utf8)))
        hmac.update(data: Array("\(id).\(timestamp).".utf8))
        hmac.update(data: body)
        return "v1," + Data(hmac.finalize()).base64EncodedString()
    }

    /// 2xx delivered; 410 Gone ends the subscription; 408, 429 and 5xx are tried again (after Retry-After, when
    /// the endpoint says one), as are time-outs and connection failures; any other answer (a redirect, 4xx) is
    /// final: the same request would get the same answer. So is an address the destination policy refuses: it stays
    /// refused until an operator allows it, and then retries the message.
    static func outcome(_ response: CurlResponse, at now: Date) -> DeliveryOutcome {
        if let refused = response.refusedDestination { return .permanentFailure(refused) }
        guard response.completed else { return .temporaryFailure(response.failure) }
        let status = response.responseCode
        var reason = "HTTP \(status)"
        let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            .replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
            .trimmingCharacters(in: .whitespaces)
        if !text.isEmpty { reason += ": " + text }
        switch status {
        case 200...299:
            return .delivered
        case 410:
            return .gone("the endpoint answered 410 Gone")
        case 408, 429, 500...599:
            return .temporaryFailure(reason, retryAfter: response.retryAfter.flatMap { retryAfter($0, now: now) })
        default:
            return .permanentFailure(reason)
        }
    }

    /// Retry-After as seconds from `now`: a number of seconds, or an HTTP date (RFC 9110: IMF-fixdate, or the
    /// obsolete RFC 850 and asctime forms). Nil when it is neither.
    public static func retryAfter(_ value: String, now: Date) -> TimeInterval? {
        let value = value.trimmingCharacters(in: .whitespaces)
        if !value.isEmpty, value.allSatisfy(\.isASCIIDigit) { return Double(value.prefix(9)) }
        // asctime pads a one-digit day with a second space.
        let single = value.split(separator: " ").joined(separator: " ")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: single) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
