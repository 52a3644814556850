import ArgumentParser
import Foundation
import SGCore
import SGDelivery

/// How the server delivers e-mail and webhooks.
public struct DeliverySettings: Sendable, HoldsSecrets {
    /// Nil when SG_SMTP_URL is not set: e-mail is off.
    public var smtp: SMTPConfiguration?
    public var webhooks: WebhookConfiguration
    /// The push platforms configured (none: push is off).
    public var push = PushConfiguration()
    /// The base of links in messages, without a trailing slash; "" when not set.
    public var publicURL: String
    public var pollInterval: Duration
    /// The retries' first and longest waits (SG_DELIVERY_RETRY_SECONDS, for tests) within the standard policy.
    public var retryPolicy: RetryPolicy
    /// Approvers' daily digest of requests waiting longer than this (SG_REMINDER_AFTER_HOURS; 0 turns it off).
    public var reminderAfterHours: Int? = DeliveryWorker.Options.defaultReminderAfterHours
    /// The internal addresses that feeds, webhooks and Web Push endpoints may lead to (SG_ALLOWED_INTERNAL_ADDRESSES).
    public var destinations = DestinationPolicy.publicOnly

    public init(
        smtp: SMTPConfiguration? = nil, webhooks: WebhookConfiguration = WebhookConfiguration(), publicURL: String = "",
        pollInterval: Duration = .milliseconds(DeliveryWorker.Options.defaultPollMilliseconds), retryPolicy: RetryPolicy = RetryPolicy()
    ) {
        self.smtp = smtp
        self.webhooks = webhooks
        self.publicURL = publicURL
        self.pollInterval = pollInterval
        self.retryPolicy = retryPolicy
    }

    /// What the server writes into the database at start, for `sgadmin` and other servers to compose alike.
    public var configuration: DeliveryConfiguration {
        DeliveryConfiguration(
            emailEnabled: smtp != nil, publicURL: publicURL, pushPlatforms: push.platforms,
            vapidPublicKey: push.webPush?.publicKey ?? "")
    }
}

/// The delivery settings as command-line options of `sgserver`. The SMTP password has no flag (a command line is
/// visible to every user of the host): it is read from SG_SMTP_PASSWORD_FILE / --smtp-password-file.
public struct DeliveryOptions: ParsableArguments {
    @Option(name: .customLong("smtp-url"), help: "smtp://host[:port] (STARTTLS required) or smtps://host[:port]; e-mail is off without it [SG_SMTP_URL].")
    public var smtpURL: String?
    @Option(name: .customLong("smtp-starttls"), help: "Require STARTTLS on smtp://: on or off [SG_SMTP_STARTTLS, default on].")
    public var smtpStartTLS: String?
    @Option(name: .customLong("smtp-user"), help: "User name for SMTP AUTH [SG_SMTP_USER].")
    public var smtpUser: String?
    @Option(name: .customLong("smtp-password-file"), help: "File holding the SMTP password; a trailing newline is ignored [SG_SMTP_PASSWORD_FILE].")
    public var smtpPasswordFile: String?
    @Option(name: .customLong("mail-from"), help: "Sender of every e-mail: address or \"Name <address>\"; required with an SMTP URL [SG_MAIL_FROM].")
    public var mailFrom: String?
    @Option(name: .customLong("public-url"), help: "Base URL of the web app, for links in messages, e.g. https://holidays.example.com [SG_PUBLIC_URL].")
    public var publicURL: String?
    @Option(name: .customLong("tls-ca-file"), help: "PEM file of the CAs that sign the SMTP server's, webhook endpoints' and push services' certificates [SG_TLS_CA_FILE, default: the system's].")
    public var tlsCAFile: String?
    @Option(name: .customLong("reminder-after-hours"), help: "Approvers get a daily digest of requests waiting longer than this; 0: none [SG_REMINDER_AFTER_HOURS, default \(DeliveryWorker.Options.defaultReminderAfterHours)].")
    public var reminderAfterHours: String?
    @Option(name: .customLong("allowed-internal-addresses"), help: "Comma-separated networks, addresses or ADDRESS:PORT on loopback, private or link-local networks that news feeds, webhooks and Web Push endpoints may reach, e.g. 10.1.2.0/24,127.0.0.1:9000 [SG_ALLOWED_INTERNAL_ADDRESSES, default none].")
    public var allowedInternalAddresses: String?
    @Option(name: .customLong("delivery-poll-ms"), help: "Milliseconds between looks at the outbox when nothing is due [SG_DELIVERY_POLL_MS, default \(DeliveryWorker.Options.defaultPollMilliseconds)].")
    public var deliveryPollMS: String?
    @OptionGroup public var push: PushOptions

    public init() {}

    /// The flags given, keyed by their environment variable's name.
    public var flags: [String: String?] {
        [
            "SG_SMTP_URL": smtpURL,
            "SG_SMTP_STARTTLS": smtpStartTLS,
            "SG_SMTP_USER": smtpUser,
            "SG_SMTP_PASSWORD_FILE": smtpPasswordFile,
            "SG_MAIL_FROM": mailFrom,
            "SG_PUBLIC_URL": publicURL,
            "SG_TLS_CA_FILE": tlsCAFile,
            "SG_DELIVERY_POLL_MS": deliveryPollMS,
            "SG_REMINDER_AFTER_HOURS": reminderAfterHours,
            "SG_ALLOWED_INTERNAL_ADDRESSES": allowedInternalAddresses,
        ].merging(push.flags) { flag, _ in flag }
    }
}

extension SettingsResolver {
    /// SG_ALLOWED_INTERNAL_ADDRESSES: the internal destinations allowed (none when unset).
    public mutating func destinationPolicy() -> DestinationPolicy {
        guard let text = text("SG_ALLOWED_INTERNAL_ADDRESSES") else { return .publicOnly }
        do {
            return try DestinationPolicy(parsing: text)
        } catch {
            problem("\(label("SG_ALLOWED_INTERNAL_ADDRESSES")): \(error)")
            return .publicOnly
        }
    }

    /// Reads the SG_SMTP_*, SG_MAIL_FROM, SG_PUBLIC_URL, SG_TLS_CA_FILE, SG_DELIVERY_* and push settings.
    public mutating func deliverySettings() -> DeliverySettings {
        var settings = DeliverySettings()

        var caFile: String?
        if let file = text("SG_TLS_CA_FILE") {
            if FileManager.default.isReadableFile(atPath: file) { caFile = file } else {
                problem("\(label("SG_TLS_CA_FILE")) '\(file)' cannot be read")
            }
        }
        settings.webhooks.caFile = caFile

        if let url = text("SG_PUBLIC_URL") {
            let trimmed = String(url.reversed().drop { $0 == "/" }.reversed())
            if let components = URLComponents(string: trimmed), ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
               let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil,
               components.user == nil, components.password == nil
            {
                settings.publicURL = trimmed
            } else {
                problem("\(label("SG_PUBLIC_URL")) '\(url)' is not an http:// or https:// URL without a query, e.g. https://holidays.example.com")
            }
        }

        let polls = integer("SG_DELIVERY_POLL_MS", trimmed: true, in: 10...60_000, default: DeliveryWorker.Options.defaultPollMilliseconds)
        settings.pollInterval = .milliseconds(polls)
        let reminderHours = integer("SG_REMINDER_AFTER_HOURS", trimmed: true, in: 0...8760, default: DeliveryWorker.Options.defaultReminderAfterHours)
        settings.reminderAfterHours = reminderHours == 0 ? nil : reminderHours

        // For tests: "first,maximum[,lease]" seconds of the retries' waits and of a claim's lease (the day of tries
        // stays).
        if let retry = text("SG_DELIVERY_RETRY_SECONDS") {
            let parts = retry.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            if (2...3).contains(parts.count), let first = parts[0], let maximum = parts[1], first > 0, first <= maximum,
               maximum <= 86_400, parts.count == 2 || (parts[2].map { $0 >= 1 && $0 <= 3600 } ?? false)
            {
                settings.retryPolicy.firstDelay = first
                settings.retryPolicy.maximumDelay = maximum
                if parts.count == 3, let lease = parts[2] { settings.retryPolicy.lease = lease }
            } else {
                problem("\(label("SG_DELIVERY_RETRY_SECONDS")) '\(retry)' is not FIRST,MAXIMUM[,LEASE] seconds with 0 < FIRST <= MAXIMUM <= 86400 and 1 <= LEASE <= 3600")
            }
        }

        settings.destinations = destinationPolicy()
        settings.webhooks.destinations = settings.destinations
        settings.smtp = smtpConfiguration(caFile: caFile)
        settings.push = pushConfiguration(caFile: caFile)
        settings.push.destinations = settings.destinations
        return settings
    }

    private mutating func smtpConfiguration(caFile: String?) -> SMTPConfiguration? {
        let problemsBefore = problems.count
        let url = text("SG_SMTP_URL")
        let user = text("SG_SMTP_USER")
        let passwordFile = text("SG_SMTP_PASSWORD_FILE")
        let from = text("SG_MAIL_FROM")
        let startTLS = parse("SG_SMTP_STARTTLS", trimmed: true, default: true, "is not on or off (also true, false, yes, no, 1, 0)") {
            switch $0.lowercased() {
            case "1", "true", "yes", "on": true
            case "0", "false", "no", "off": false
            default: nil
            }
        }
        guard let url else {
            let unused = ["SG_SMTP_USER", "SG_SMTP_PASSWORD_FILE", "SG_MAIL_FROM", "SG_SMTP_STARTTLS"].filter { text($0) != nil }
            if !unused.isEmpty {
                warn("\(unused.joined(separator: ", ")) set but SG_SMTP_URL is not: e-mail is off")
            }
            return nil
        }

        if !SMTPConfiguration.isSMTPURL(url) {
            problem("\(label("SG_SMTP_URL")) '\(url)' is not an smtp:// or smtps:// URL with a host (and no user, password or query)")
        }

        var sender: MailAddress?
        if let from {
            sender = MailAddress(parsing: from)
            if sender == nil {
                problem("\(label("SG_MAIL_FROM")) '\(from)' is not an e-mail address or \"Name <address>\" (ASCII address, one @)")
            }
        } else {
            problem("\(label("SG_MAIL_FROM")) is missing: the sender of the e-mails, e.g. \"SGEmployee <noreply@example.com>\"")
        }

        var password: String?
        if let passwordFile {
            if let data = FileManager.default.contents(atPath: passwordFile) {
                var text = String(decoding: data, as: UTF8.self)
                while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
                if text.isEmpty { problem("\(label("SG_SMTP_PASSWORD_FILE")) '\(passwordFile)' is empty") } else { password = text }
            } else {
                problem("\(label("SG_SMTP_PASSWORD_FILE")) '\(passwordFile)' cannot be read")
            }
            if user == nil { problem("\(label("SG_SMTP_PASSWORD_FILE")) is set but \(label("SG_SMTP_USER")) is missing") }
        } else if user != nil {
            problem("\(label("SG_SMTP_USER")) is set but \(label("SG_SMTP_PASSWORD_FILE")) is missing")
        }

        guard problems.count == problemsBefore, let sender else { return nil }
        let configuration = SMTPConfiguration(
            url: url, requireStartTLS: startTLS, username: user, password: password, from: sender, caFile: caFile)
        if configuration.sendsInClear {
            warn("SG_SMTP_STARTTLS is off: \(user != nil ? "e-mail and the SMTP password cross" : "e-mail crosses") the network unencrypted")
        }
        return configuration
    }
}
