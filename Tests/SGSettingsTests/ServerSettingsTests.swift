import ArgumentParser
import Foundation
import Logging
import SGCore
import SGSettings
import Testing

@Suite("sgserver's settings")
struct ServerSettingsTests {
    /// sgserver's flags, keyed as it hands them over: every one declared, those in `given` given.
    static func flags(_ given: [String: String] = [:]) throws -> [String: String?] {
        var flags: [String: String?] = try LDAPOptions.parse([]).flags.merging(DeliveryOptions.parse([]).flags) { first, _ in first }
            .merging(DatabaseOptions.parse([]).flags) { first, _ in first }
        for name in [
            "SG_HOST", "SG_PORT", "SG_DIRECTORY", "SG_ACCESS_TOKEN_MINUTES", "SG_REFRESH_TOKEN_DAYS", "SG_LOG_LEVEL", "SG_LOGIN_MAX_FAILURES",
            "SG_LOGIN_MAX_FAILURES_PER_ADDRESS", "SG_LOGIN_FAILURE_WINDOW", "SG_TRUSTED_PROXIES", "SG_LOG_FORMAT", "SG_METRICS_ADDRESS",
        ] + Self.limitNames {
            flags[name] = .some(given[name])
        }
        return flags
    }

    static func problems(flags given: [String: String] = [:], environment: [String: String]) throws -> [String] {
        let flags = try flags(given)
        do throws(SettingsProblems) {
            _ = try ServerSettings.resolve(flags: flags, environment: environment)
            return []
        } catch {
            return error.messages
        }
    }

    /// The settings that bound what one client or one burst may take.
    static let limitNames = [
        "SG_LOGIN_CHECKS_IN_FLIGHT", "SG_LOGIN_CHECKS_PER_ADDRESS", "SG_WRITES_PER_MINUTE", "SG_IDLE_TIMEOUT", "SG_BODY_TIMEOUT",
        "SG_MAX_CONNECTIONS",
    ]

    @Test("the limits: defaults, given values, and every bad one named at once")
    func limits() throws {
        let defaults = try ServerSettings.resolve(flags: Self.flags(), environment: [:])
        #expect(defaults.loginChecks == PasswordCheckLimit.Limits())
        #expect(defaults.loginChecks.total >= 4 && defaults.loginChecks.perAddress == 2)
        #expect(defaults.writesPerMinute == 120)
        #expect(defaults.idleTimeout == 30 && defaults.bodyTimeout == 30 && defaults.maxConnections == 2000)
        let given = try ServerSettings.resolve(
            flags: Self.flags(["SG_LOGIN_CHECKS_IN_FLIGHT": "16"]), environment: ["SG_LOGIN_CHECKS_PER_ADDRESS": "3"])
        #expect(given.loginChecks == PasswordCheckLimit.Limits(total: 16, perAddress: 3))
        #expect(try ServerSettings.resolve(flags: Self.flags(["SG_WRITES_PER_MINUTE": "30"]), environment: [:]).writesPerMinute == 30)
        let connections = try ServerSettings.resolve(
            flags: Self.flags(["SG_IDLE_TIMEOUT": "5"]), environment: ["SG_BODY_TIMEOUT": "7", "SG_MAX_CONNECTIONS": "100"])
        #expect(connections.idleTimeout == 5 && connections.bodyTimeout == 7 && connections.maxConnections == 100)
        let problems = try Self.problems(environment: Dictionary(uniqueKeysWithValues: Self.limitNames.map { ($0, "0") }))
        for name in Self.limitNames {
            #expect(problems.contains { $0.hasPrefix(name + " / --") }, "\(name): \(problems)")
        }
    }

    @Test("the log format and the metrics listener: text and off by default, HOST:PORT, bad values named")
    func operating() throws {
        let defaults = try ServerSettings.resolve(flags: Self.flags(), environment: [:])
        #expect(defaults.logFormat == .text)
        #expect(defaults.metricsAddress == nil)
        let given = try ServerSettings.resolve(
            flags: Self.flags(["SG_METRICS_ADDRESS": "[::1]:9090"]), environment: ["SG_LOG_FORMAT": "json", "SG_METRICS_ADDRESS": "0.0.0.0:1"])
        #expect(given.logFormat == .json)
        #expect(given.metricsAddress?.host == "::1" && given.metricsAddress?.port == 9090)
        let v4 = try ServerSettings.resolve(flags: Self.flags(), environment: ["SG_METRICS_ADDRESS": "127.0.0.1:9090"])
        #expect(v4.metricsAddress?.host == "127.0.0.1" && v4.metricsAddress?.port == 9090)
        #expect(try ServerSettings.resolve(flags: Self.flags(), environment: ["SG_METRICS_ADDRESS": "off"]).metricsAddress == nil)
        #expect(try Self.problems(flags: ["SG_METRICS_ADDRESS": "9090"], environment: ["SG_LOG_FORMAT": "xml"]) == [
            "SG_LOG_FORMAT / --log-format 'xml' is not one of text, json",
            "SG_METRICS_ADDRESS / --metrics-address '9090' is not HOST:PORT (e.g. 127.0.0.1:9090, [::1]:9090) or off",
        ])
        #expect(try Self.problems(environment: ["SG_METRICS_ADDRESS": "localhost:99999"]).count == 1)
    }

    @Test("nothing set: the defaults")
    func defaults() throws {
        let settings = try ServerSettings.resolve(flags: Self.flags(), environment: [:])
        #expect(settings.host == "127.0.0.1")
        #expect(settings.port == 8080)
        #expect(settings.database == .sqlite(path: "./var/sgemployee.sqlite"))
        #expect(settings.sessionLifetimes == SessionLifetimes(access: 15 * 60, refresh: 30 * 86_400))
        #expect(settings.logLevel == .info)
        #expect(settings.loginLimits == LoginThrottle.Limits(perUsername: 5, perAddress: 20, window: 300))
        #expect(settings.trustedProxies.isEmpty)
        #expect(settings.ldap == nil)
        #expect(settings.warnings.isEmpty)
    }

    @Test("a flag wins over its environment variable, which wins over the default")
    func flagWins() throws {
        let settings = try ServerSettings.resolve(
            flags: Self.flags(["SG_PORT": "9000", "SG_LOG_LEVEL": "debug", "SG_TRUSTED_PROXIES": "10.0.0.1, ::1"]),
            environment: [
                "SG_PORT": "not a port", "SG_LOG_LEVEL": "loud", "SG_TRUSTED_PROXIES": "proxy",
                "SG_HOST": "0.0.0.0", "SG_ACCESS_TOKEN_MINUTES": "5", "SG_REFRESH_TOKEN_DAYS": "7", "SG_LOGIN_FAILURE_WINDOW": "60",
            ])
        #expect(settings.port == 9000)
        #expect(settings.logLevel == .debug)
        #expect(settings.trustedProxies == ["10.0.0.1", "::1"])
        #expect(settings.host == "0.0.0.0")
        #expect(settings.sessionLifetimes == SessionLifetimes(access: 300, refresh: 7 * 86_400))
        #expect(settings.loginLimits == LoginThrottle.Limits(perUsername: 5, perAddress: 20, window: 60))
    }

    @Test("every problem is named at once, from flags and variables alike")
    func everyProblem() throws {
        let problems = try Self.problems(
            flags: ["SG_PORT": "0", "SG_DIRECTORY": "nis", "SG_LOG_LEVEL": "loud"],
            environment: [
                "SG_HOST": "", "SG_PORT": "8080", "SG_DATABASE": "", "SG_LOGIN_MAX_FAILURES": "0",
                "SG_LOGIN_MAX_FAILURES_PER_ADDRESS": "many", "SG_LOGIN_FAILURE_WINDOW": "10001",
                "SG_TRUSTED_PROXIES": "10.0.0.1, proxy.example.com", "SG_ACCESS_TOKEN_MINUTES": "0",
                "SG_REFRESH_TOKEN_DAYS": "366",
            ])
        #expect(problems == [
            "SG_HOST / --host is empty",
            "SG_PORT / --port '0' is not a port number (1-65535)",
            "SG_DATABASE / --database is empty",
            "SG_DIRECTORY / --directory 'nis' is not supported (supported: local, ldap)",
            "SG_LOGIN_MAX_FAILURES / --login-max-failures '0' is not a number between 1 and 10000",
            "SG_LOGIN_MAX_FAILURES_PER_ADDRESS / --login-max-failures-per-address 'many' is not a number between 1 and 10000",
            "SG_LOGIN_FAILURE_WINDOW / --login-failure-window '10001' is not a number between 1 and 10000",
            "SG_TRUSTED_PROXIES / --trusted-proxies 'proxy.example.com' is not an IP address",
            "SG_ACCESS_TOKEN_MINUTES / --access-token-minutes '0' is not a number between 1 and 1440",
            "SG_REFRESH_TOKEN_DAYS / --refresh-token-days '366' is not a number between 1 and 365",
            "SG_LOG_LEVEL / --log-level 'loud' is not one of trace, debug, info, notice, warning, error, critical",
        ])
        #expect(SettingsProblems(messages: Array(problems.prefix(2))).report("sgserver: invalid configuration") == """
            sgserver: invalid configuration:
              - SG_HOST / --host is empty
              - SG_PORT / --port '0' is not a port number (1-65535)
            """)
    }

    @Test("with the ldap directory, the LDAP settings' problems join the server's; their warnings are kept")
    func ldapDirectory() throws {
        let problems = try Self.problems(
            flags: ["SG_DIRECTORY": "ldap"], environment: ["SG_PORT": "http", "SG_LDAP_BIND_PASSWORD": "pw"])
        #expect(problems == [
            "SG_PORT / --port 'http' is not a port number (1-65535)",
            "SG_LDAP_URL / --ldap-url is missing (e.g. ldaps://ldap.example.com)",
            "SG_LDAP_BASE_DN / --ldap-base-dn is missing (where users are searched, e.g. dc=example,dc=com)",
            // The password has no flag: a command line is visible to every user of the host.
            "a bind password is set but SG_LDAP_BIND_DN / --ldap-bind-dn is missing",
        ])

        let settings = try ServerSettings.resolve(
            flags: Self.flags(["SG_DIRECTORY": "ldap"]),
            environment: ["SG_LDAP_URL": "ldap://ldap.example.com", "SG_LDAP_BASE_DN": "dc=example,dc=com"])
        let ldap = try #require(settings.ldap)
        #expect(ldap.url == "ldap://ldap.example.com")
        #expect(settings.warnings == [
            "no service account (SG_LDAP_BIND_DN): user searches are anonymous",
            "SG_LDAP_URL is ldap:// without SG_LDAP_START_TLS: passwords cross the network unencrypted",
        ])
    }

    @Test("the resolver: a setting without a flag is named by its variable; the database file")
    func resolver() {
        var resolver = SettingsResolver(flags: ["SG_DATABASE": nil], environment: ["SG_DATABASE": "/srv/sg.sqlite", "SG_SECRET": " "])
        #expect(resolver.label("SG_DATABASE") == "SG_DATABASE / --database")
        #expect(resolver.label("SG_SECRET") == "SG_SECRET")
        #expect(resolver.value("SG_SECRET") == " ")
        #expect(resolver.text("SG_SECRET") == nil)
        #expect(resolver.databaseLocation() == .sqlite(path: "/srv/sg.sqlite"))
        var given = SettingsResolver(flags: ["SG_DATABASE": "given.sqlite"], environment: ["SG_DATABASE": "/srv/sg.sqlite"])
        #expect(given.databaseLocation() == .sqlite(path: "given.sqlite"))
        var unset = SettingsResolver(flags: ["SG_DATABASE": nil], environment: [:])
        #expect(unset.databaseLocation() == .sqlite(path: "./var/sgemployee.sqlite"))

        #expect(resolver.integer("SG_DATABASE", in: 1...9, default: 4) == 4)
        #expect(resolver.problems == ["SG_DATABASE / --database '/srv/sg.sqlite' is not a number between 1 and 9"])
        let found = resolver
        #expect(throws: SettingsProblems(messages: found.problems)) { _ = try found.checked(1) }
    }
}

/// What the server logs of its settings: a configuration printed, interpolated, dumped or reflected shows no secret.
@Suite("secrets in settings")
struct SecretSettingsTests {
    @Test("every secret setting stays out of the settings' descriptions")
    func noSecretInAnyDescription() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sg-secret-settings-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let smtpPassword = "smtp-Secret-7Fq", bindPassword = "bind-Secret-9Zx", databasePassword = "db-Secret-3Kp"
        try (smtpPassword + "\n").write(to: folder.appendingPathComponent("smtp"), atomically: true, encoding: .utf8)
        try (bindPassword + "\n").write(to: folder.appendingPathComponent("bind"), atomically: true, encoding: .utf8)
        let settings = try ServerSettings.resolve(flags: ServerSettingsTests.flags(), environment: [
            "SG_DATABASE": "postgres://sg:\(databasePassword)@db.example.com/holidays",
            "SG_SMTP_URL": "smtps://mail.example.com", "SG_SMTP_USER": "mailer", "SG_SMTP_PASSWORD_FILE": folder.appendingPathComponent("smtp").path,
            "SG_MAIL_FROM": "hr@example.com",
            "SG_DIRECTORY": "ldap", "SG_LDAP_URL": "ldaps://ldap.example.com", "SG_LDAP_BASE_DN": "dc=example,dc=com",
            "SG_LDAP_BIND_DN": "cn=sg,dc=example,dc=com", "SG_LDAP_BIND_PASSWORD_FILE": folder.appendingPathComponent("bind").path,
        ])
        #expect(settings.delivery.smtp?.password == smtpPassword && settings.ldap?.bindPassword == bindPassword)
        var dumped = ""
        dump(settings, to: &dumped)
        var dumpedParts = ""
        dump(settings.delivery, to: &dumpedParts)
        dump(settings.ldap, to: &dumpedParts)
        dump(settings.database, to: &dumpedParts)
        let shown = [
            "\(settings)", String(reflecting: settings), dumped, dumpedParts, "\(settings.delivery.smtp as Any)", "\(settings.ldap as Any)",
            "\(settings.database)", String(reflecting: settings.database), "\(settings.delivery)",
        ].joined(separator: "\n")
        for secret in [smtpPassword, bindPassword, databasePassword] { #expect(!shown.contains(secret), "\(secret) shown in \(shown)") }
    }
}
