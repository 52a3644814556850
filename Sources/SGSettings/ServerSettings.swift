import Foundation
import Logging
import SGCore
import SGDelivery
import SGLDAP

/// sgserver's start-up settings, from its flags and the environment.
public struct ServerSettings: Sendable, HoldsSecrets {
    public var host: String
    public var port: Int
    public var database: DatabaseLocation
    /// How long access tokens and sessions last.
    public var sessionLifetimes: SessionLifetimes
    public var logLevel: Logger.Level
    /// Human text (the default) or one JSON object per line.
    public var logFormat: LogFormat
    /// Where `GET /metrics` is served, apart from the API; nil: metrics are off.
    public var metricsAddress: (host: String, port: Int)?
    public var loginLimits: LoginThrottle.Limits
    /// How many password checks may be under way at once, in all and per client address.
    public var loginChecks: PasswordCheckLimit.Limits
    /// Changes one employee may make a minute through the API.
    public var writesPerMinute: Int
    /// Seconds a connection may go without a complete request head (while it arrives, and between requests).
    public var idleTimeout: Int
    /// Seconds a request's body may take to arrive after its head.
    public var bodyTimeout: Int
    /// Connections served at once.
    public var maxConnections: Int
    public var trustedProxies: Set<String>
    /// The directory settings when SG_DIRECTORY is ldap.
    public var ldap: LDAPConfiguration?
    /// E-mail (SG_SMTP_*, SG_MAIL_FROM), webhooks and the outbox's worker.
    public var delivery: DeliverySettings
    /// Settings that work but deserve a line in the log.
    public var warnings: [String]
    /// What the server serves at `/`: the web app embedded in the binary, a folder's files (SG_WEB_ROOT, to work on
    /// the app), or nothing (SG_WEB_APP=off).
    public var webApp: WebApp = .embedded

    public enum WebApp: Sendable, Equatable {
        case embedded, folder(String), off
    }

    /// `flags` are keyed by their environment variable's name, as `SettingsResolver` takes them.
    public static func resolve(flags: [String: String?], environment: [String: String]) throws(SettingsProblems) -> ServerSettings {
        var settings = SettingsResolver(flags: flags, environment: environment)

        let host = settings.value("SG_HOST") ?? "127.0.0.1"
        if host.isEmpty { settings.problem("\(settings.label("SG_HOST")) is empty") }

        let port = settings.parse("SG_PORT", default: 8080, "is not a port number (1-65535)") {
            Int($0).flatMap { (1...65535).contains($0) ? $0 : nil }
        }

        let database = settings.databaseLocation()

        let directory = settings.value("SG_DIRECTORY") ?? "local"
        var ldap: LDAPConfiguration?
        switch directory {
        case "local":
            break
        case "ldap":
            ldap = settings.ldapConfiguration()
        default:
            settings.problem("\(settings.label("SG_DIRECTORY")) '\(directory)' is not supported (supported: local, ldap)")
        }

        let loginLimits = LoginThrottle.Limits(
            perUsername: settings.integer("SG_LOGIN_MAX_FAILURES", in: 1...10_000, default: 5),
            perAddress: settings.integer("SG_LOGIN_MAX_FAILURES_PER_ADDRESS", in: 1...10_000, default: 20),
            window: Double(settings.integer("SG_LOGIN_FAILURE_WINDOW", in: 1...10_000, default: 300)))

        let loginChecks = PasswordCheckLimit.Limits(
            total: settings.integer("SG_LOGIN_CHECKS_IN_FLIGHT", in: 1...10_000, default: PasswordCheckLimit.Limits.defaultTotal),
            perAddress: settings.integer("SG_LOGIN_CHECKS_PER_ADDRESS", in: 1...10_000, default: 2))

        let writesPerMinute = settings.integer("SG_WRITES_PER_MINUTE", in: 1...1_000_000, default: 120)
        let idleTimeout = settings.integer("SG_IDLE_TIMEOUT", in: 1...3600, default: 30)
        let bodyTimeout = settings.integer("SG_BODY_TIMEOUT", in: 1...3600, default: 30)
        let maxConnections = settings.integer("SG_MAX_CONNECTIONS", in: 1...1_000_000, default: 2000)

        var trustedProxies = Set<String>()
        for item in (settings.value("SG_TRUSTED_PROXIES") ?? "").split(separator: ",") {
            let address = item.trimmingCharacters(in: .whitespaces)
            // Services compares them in canonical form; here they need only be addresses.
            if IPAddress.canonical(address) != nil {
                trustedProxies.insert(address)
            } else {
                settings.problem("\(settings.label("SG_TRUSTED_PROXIES")) '\(address)' is not an IP address")
            }
        }

        let accessMinutes = settings.integer("SG_ACCESS_TOKEN_MINUTES", in: 1...1440, default: 15)
        let refreshDays = settings.integer("SG_REFRESH_TOKEN_DAYS", in: 1...365, default: 30)

        let logLevel = settings.parse(
            "SG_LOG_LEVEL", default: Logger.Level.info, "is not one of trace, debug, info, notice, warning, error, critical",
            Logger.Level.init(rawValue:))

        let logFormat = settings.parse("SG_LOG_FORMAT", default: LogFormat.text, "is not one of text, json", LogFormat.init(rawValue:))

        var metricsAddress: (host: String, port: Int)?
        if let address = settings.value("SG_METRICS_ADDRESS"), !address.isEmpty, address != "off" {
            metricsAddress = Self.hostAndPort(address)
            if metricsAddress == nil {
                settings.problem("\(settings.label("SG_METRICS_ADDRESS")) '\(address)' is not HOST:PORT (e.g. 127.0.0.1:9090, [::1]:9090) or off")
            }
        }

        let delivery = settings.deliverySettings()

        var webApp = ServerSettings.WebApp.embedded
        switch settings.text("SG_WEB_APP") ?? "on" {
        case "on": break
        case "off": webApp = .off
        case let other: settings.problem("\(settings.label("SG_WEB_APP")) '\(other)' is not on or off")
        }
        if let root = settings.text("SG_WEB_ROOT") {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/index.html", isDirectory: &isFolder), !isFolder.boolValue {
                webApp = .folder(root)
            } else {
                settings.problem("\(settings.label("SG_WEB_ROOT")) '\(root)' is not a folder with the web app's index.html (clients/web)")
            }
        }

        var resolved = try settings.checked(ServerSettings(
            host: host, port: port, database: database,
            sessionLifetimes: SessionLifetimes(access: Double(accessMinutes) * 60, refresh: Double(refreshDays) * 86_400),
            logLevel: logLevel, logFormat: logFormat, metricsAddress: metricsAddress,
            loginLimits: loginLimits, loginChecks: loginChecks, writesPerMinute: writesPerMinute, idleTimeout: idleTimeout, bodyTimeout: bodyTimeout, maxConnections: maxConnections,
            trustedProxies: trustedProxies, ldap: ldap, delivery: delivery,
            warnings: settings.warnings))
        resolved.webApp = webApp
        return resolved
    }

    public enum LogFormat: String, Sendable {
        case text, json
    }

    /// `host:port`, `[v6]:port`; nil when it is neither.
    static func hostAndPort(_ address: String) -> (host: String, port: Int)? {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]),
              (1...65535).contains(port)
        else { return nil }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("/") else { return nil }
        return (host, port)
    }
}
