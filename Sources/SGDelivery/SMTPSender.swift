import Foundation
import SGCore

/// Where and how the server submits e-mail.
public struct SMTPConfiguration: Sendable, Equatable, HoldsSecrets {
    /// `smtp://host[:port]` (STARTTLS unless `requireStartTLS` is off) or `smtps://host[:port]` (TLS at once).
    public var url: String
    /// Refuse to send over smtp:// unless the server upgrades the connection with STARTTLS.
    public var requireStartTLS: Bool
    public var username: String?
    public var password: String?
    /// The sender of every message, also the domain of its Message-ID.
    public var from: MailAddress
    /// PEM file of the CAs that sign the server's certificate, instead of the system's.
    public var caFile: String?
    public var connectTimeout: TimeInterval
    /// For a whole submission, connecting included.
    public var timeout: TimeInterval

    public init(
        url: String, requireStartTLS: Bool = true, username: String? = nil, password: String? = nil, from: MailAddress,
        caFile: String? = nil, connectTimeout: TimeInterval = 10, timeout: TimeInterval = 60
    ) {
        self.url = url
        self.requireStartTLS = requireStartTLS
        self.username = username
        self.password = password
        self.from = from
        self.caFile = caFile
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }

    /// Whether `url` is smtp:// or smtps:// with a host, and nothing we would not use (no user or password: those
    /// are settings of their own).
    public static func isSMTPURL(_ url: String) -> Bool {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              ["smtp", "smtps"].contains(scheme), let host = components.host, !host.isEmpty
        else { return false }
        return components.user == nil && components.password == nil && components.query == nil && components.fragment == nil
    }

    public static func isImplicitTLS(_ url: String) -> Bool {
        url.lowercased().hasPrefix("smtps://")
    }

    /// Mail and the password would cross the network unencrypted.
    public var sendsInClear: Bool { !Self.isImplicitTLS(url) && !requireStartTLS }
}

/// Submits outbox e-mails to the configured SMTP server, one message per transfer.
public struct SMTPSender: Sendable {
    public let configuration: SMTPConfiguration

    public init(configuration: SMTPConfiguration) {
        self.configuration = configuration
    }

    public func send(_ message: OutboxMessage, on lane: CurlLane) async -> DeliveryOutcome {
        let recipient = message.draft.address
        guard MailAddress.isDeliverable(recipient) else {
            return .permanentFailure("'\(recipient)' is not an address this server can send to")
        }
        let text = MailMessage.render(message, from: configuration.from)
        let response = await lane.perform(CurlRequest(
            url: configuration.url, protocols: "smtp,smtps",
            kind: .smtp(
                from: configuration.from.address, recipients: [recipient],
                requireTLS: !configuration.sendsInClear,
                username: configuration.username, password: configuration.password),
            body: Array(text.utf8), caFile: configuration.caFile, connectTimeout: configuration.connectTimeout,
            timeout: configuration.timeout))
        return Self.outcome(response)
    }

    /// The server's last reply decides: the message was taken (a completed transfer), or a 4xx is worth another
    /// try and a 5xx is final. A 53x (authentication or TLS required, credentials refused) is the server's
    /// configuration and ours, not the message's: like an unreachable server, a time-out or a failed TLS
    /// handshake, it is tried again, so an operator's fix sends what waited.
    static func outcome(_ response: CurlResponse) -> DeliveryOutcome {
        if response.completed { return .delivered }
        // The server's own words when it said something ("550 5.1.1 <x@example.com>: Recipient address rejected"),
        // then libcurl's ("RCPT failed: 550").
        var reason = response.failure
        if response.responseCode >= 400, let reply = response.reply {
            reason = "\(reply) (\(response.failure))"
        }
        switch response.responseCode {
        case 530...539: return .temporaryFailure(reason)
        case 500...599 where !response.loginDenied: return .permanentFailure(reason)
        default: return .temporaryFailure(reason)
        }
    }
}
