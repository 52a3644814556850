import Foundation
import SGCore
import SGDelivery
import SGSettings
import Testing

@Suite("sgserver's e-mail and webhook settings")
struct DeliverySettingsTests {
    static func resolve(flags given: [String: String] = [:], environment: [String: String]) throws -> ServerSettings {
        var flags = try ServerSettingsTests.flags()
        for (name, value) in given { flags[name] = .some(value) }
        return try ServerSettings.resolve(flags: flags, environment: environment)
    }

    static func problems(flags given: [String: String] = [:], environment: [String: String]) throws -> [String] {
        var flags = try ServerSettingsTests.flags()
        for (name, value) in given { flags[name] = .some(value) }
        do throws(SettingsProblems) {
            _ = try ServerSettings.resolve(flags: flags, environment: environment)
            return []
        } catch {
            return error.messages
        }
    }

    /// A file holding `text`, removed by the caller.
    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sg-settings-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("nothing set: e-mail off, no links, a poll a second, the standard retries")
    func defaults() throws {
        let settings = try Self.resolve(environment: [:])
        #expect(settings.delivery.smtp == nil)
        #expect(settings.delivery.publicURL == "")
        #expect(settings.delivery.configuration == DeliveryConfiguration(emailEnabled: false, publicURL: ""))
        #expect(settings.delivery.pollInterval == .seconds(1))
        #expect(settings.delivery.retryPolicy == RetryPolicy())
        #expect(settings.delivery.webhooks == WebhookConfiguration())
        #expect(settings.warnings.isEmpty)
    }

    @Test("SMTP with STARTTLS and a password file; a flag wins over its variable")
    func smtp() throws {
        let password = try Self.file("pässword with spaces\n")
        let ca = try Self.file("-----BEGIN CERTIFICATE-----\n")
        defer { try? FileManager.default.removeItem(atPath: password); try? FileManager.default.removeItem(atPath: ca) }
        let settings = try Self.resolve(
            flags: ["SG_SMTP_URL": "smtp://mail.example.com:587", "SG_PUBLIC_URL": "https://holidays.example.com/"],
            environment: [
                "SG_SMTP_URL": "smtp://ignored.example.com", "SG_SMTP_USER": "mailer", "SG_SMTP_PASSWORD_FILE": password,
                "SG_MAIL_FROM": "SGEmployee <noreply@example.com>", "SG_TLS_CA_FILE": ca, "SG_DELIVERY_POLL_MS": "250",
                "SG_DELIVERY_RETRY_SECONDS": "0.2,2,5",
            ])
        let smtp = try #require(settings.delivery.smtp)
        #expect(smtp.url == "smtp://mail.example.com:587")
        #expect(smtp.requireStartTLS)
        #expect(smtp.username == "mailer")
        #expect(smtp.password == "pässword with spaces")
        #expect(smtp.from == MailAddress(name: "SGEmployee", address: "noreply@example.com"))
        #expect(smtp.caFile == ca)
        #expect(settings.delivery.webhooks.caFile == ca)
        #expect(settings.delivery.publicURL == "https://holidays.example.com")
        #expect(settings.delivery.configuration == DeliveryConfiguration(emailEnabled: true, publicURL: "https://holidays.example.com"))
        #expect(settings.delivery.pollInterval == .milliseconds(250))
        #expect(settings.delivery.retryPolicy.firstDelay == 0.2)
        #expect(settings.delivery.retryPolicy.maximumDelay == 2)
        #expect(settings.delivery.retryPolicy.lease == 5)
        #expect(settings.warnings.isEmpty)
    }

    @Test("smtps:// needs no STARTTLS; turning STARTTLS off on smtp:// works with a warning")
    func tlsModes() throws {
        let smtps = try Self.resolve(environment: ["SG_SMTP_URL": "smtps://mail.example.com", "SG_MAIL_FROM": "a@example.com"])
        #expect(smtps.delivery.smtp?.sendsInClear == false)
        #expect(smtps.warnings.isEmpty)
        let clear = try Self.resolve(environment: [
            "SG_SMTP_URL": "smtp://127.0.0.1:25", "SG_MAIL_FROM": "a@example.com", "SG_SMTP_STARTTLS": "off",
        ])
        #expect(clear.delivery.smtp?.requireStartTLS == false)
        #expect(clear.warnings == ["SG_SMTP_STARTTLS is off: e-mail crosses the network unencrypted"])
    }

    @Test("every problem at once, with the server's others; exit status 2 is sgserver's")
    func problems() throws {
        let empty = try Self.file("\n")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        #expect(try Self.problems(environment: [
            "SG_PORT": "x", "SG_SMTP_URL": "http://mail.example.com", "SG_SMTP_STARTTLS": "maybe",
            "SG_SMTP_USER": "mailer", "SG_SMTP_PASSWORD_FILE": "/nonexistent/password", "SG_PUBLIC_URL": "ftp://x",
            "SG_TLS_CA_FILE": "/nonexistent/ca.pem", "SG_DELIVERY_POLL_MS": "5", "SG_DELIVERY_RETRY_SECONDS": "3,1",
        ]) == [
            "SG_PORT / --port 'x' is not a port number (1-65535)",
            "SG_TLS_CA_FILE / --tls-ca-file '/nonexistent/ca.pem' cannot be read",
            "SG_PUBLIC_URL / --public-url 'ftp://x' is not an http:// or https:// URL without a query, e.g. https://holidays.example.com",
            "SG_DELIVERY_POLL_MS / --delivery-poll-ms '5' is not a number between 10 and 60000",
            "SG_DELIVERY_RETRY_SECONDS '3,1' is not FIRST,MAXIMUM[,LEASE] seconds with 0 < FIRST <= MAXIMUM <= 86400 and 1 <= LEASE <= 3600",
            "SG_SMTP_STARTTLS / --smtp-starttls 'maybe' is not on or off (also true, false, yes, no, 1, 0)",
            "SG_SMTP_URL / --smtp-url 'http://mail.example.com' is not an smtp:// or smtps:// URL with a host (and no user, password or query)",
            "SG_MAIL_FROM / --mail-from is missing: the sender of the e-mails, e.g. \"SGEmployee <noreply@example.com>\"",
            "SG_SMTP_PASSWORD_FILE / --smtp-password-file '/nonexistent/password' cannot be read",
        ])
        #expect(try Self.problems(environment: [
            "SG_SMTP_URL": "smtp://user:pw@mail.example.com", "SG_MAIL_FROM": "not an address", "SG_SMTP_PASSWORD_FILE": empty,
        ]) == [
            "SG_SMTP_URL / --smtp-url 'smtp://user:pw@mail.example.com' is not an smtp:// or smtps:// URL with a host (and no user, password or query)",
            "SG_MAIL_FROM / --mail-from 'not an address' is not an e-mail address or \"Name <address>\" (ASCII address, one @)",
            "SG_SMTP_PASSWORD_FILE / --smtp-password-file '\(empty)' is empty",
            "SG_SMTP_PASSWORD_FILE / --smtp-password-file is set but SG_SMTP_USER / --smtp-user is missing",
        ])
        #expect(try Self.problems(environment: ["SG_SMTP_URL": "smtp://mail.example.com", "SG_MAIL_FROM": "a@example.com", "SG_SMTP_USER": "u"]) == [
            "SG_SMTP_USER / --smtp-user is set but SG_SMTP_PASSWORD_FILE / --smtp-password-file is missing",
        ])
    }

    @Test("SMTP details without SG_SMTP_URL: e-mail stays off, with a warning")
    func detailsWithoutURL() throws {
        let settings = try Self.resolve(environment: ["SG_MAIL_FROM": "a@example.com", "SG_SMTP_USER": "u"])
        #expect(settings.delivery.smtp == nil)
        #expect(settings.warnings == ["SG_SMTP_USER, SG_MAIL_FROM set but SG_SMTP_URL is not: e-mail is off"])
    }
}
