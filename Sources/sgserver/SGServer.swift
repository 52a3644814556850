import ArgumentParser
import Foundation
import Hummingbird
import Logging
import SGAPI
import SGCore
import SGLDAP
import SGLDAPOptions
import SGStore

/// Reads configuration, opens and migrates the database, and serves the API until SIGTERM or SIGINT.
@main
struct SGServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sgserver",
        abstract: "The SGEmployee holiday-management API server.",
        discussion: "Every option can also be given by its environment variable (SG_HOST, SG_PORT, ...); a flag wins.")

    @Option(help: "Address to listen on [SG_HOST, default 127.0.0.1].")
    var host: String?

    @Option(help: "Port to listen on [SG_PORT, default 8080].")
    var port: String?

    @Option(help: "SQLite database file, created and migrated on start [SG_DATABASE, default ./var/sgemployee.sqlite].")
    var database: String?

    @Option(help: "Where logins are checked: local (accounts in the database) or ldap (the SG_LDAP_* settings) [SG_DIRECTORY, default local].")
    var directory: String?

    @Option(help: "Lifetime of a bearer token in hours [SG_TOKEN_HOURS, default 12].")
    var tokenHours: String?

    @Flag(help: "On an empty database, create a demo company and print its logins [SG_SEED_DEMO=1].")
    var seedDemo = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error [SG_LOG_LEVEL, default info].")
    var logLevel: String?

    @Option(help: "Failed logins allowed per username within the failure window [SG_LOGIN_MAX_FAILURES, default 5].")
    var loginMaxFailures: String?

    @Option(help: "Failed logins allowed per client address within the failure window [SG_LOGIN_MAX_FAILURES_PER_ADDRESS, default 20].")
    var loginMaxFailuresPerAddress: String?

    @Option(help: "Seconds a failed login counts against its username and address [SG_LOGIN_FAILURE_WINDOW, default 300].")
    var loginFailureWindow: String?

    @Option(help: "Comma-separated addresses of reverse proxies whose X-Forwarded-For names the client, for throttling logins per client [SG_TRUSTED_PROXIES, default none].")
    var trustedProxies: String?

    @OptionGroup(title: "LDAP directory (with --directory ldap)")
    var ldap: LDAPOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let settings: Settings
        do {
            settings = try Settings.resolve(
                flags: [
                    "SG_HOST": host, "SG_PORT": port, "SG_DATABASE": database, "SG_DIRECTORY": directory,
                    "SG_TOKEN_HOURS": tokenHours, "SG_LOG_LEVEL": logLevel, "SG_LOGIN_MAX_FAILURES": loginMaxFailures,
                    "SG_LOGIN_MAX_FAILURES_PER_ADDRESS": loginMaxFailuresPerAddress,
                    "SG_LOGIN_FAILURE_WINDOW": loginFailureWindow, "SG_TRUSTED_PROXIES": trustedProxies,
                ].merging(ldap.flags) { flag, _ in flag },
                environment: environment)
        } catch let error as Settings.Problems {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(2)
        }

        var logger = Logger(label: "sgserver")
        logger.logLevel = settings.logLevel
        do {
            // The log is checkpointed by WALCheckpointService, not by the commits of requests.
            let database = try AppDatabase.open(path: settings.databasePath, schema: .migrate, checkpointing: .background)
            let schema = try database.appliedMigrations()
            logger.info("Database ready", metadata: ["path": "\(settings.databasePath)", "schema": "\(schema)"])
            if seedDemo || environment["SG_SEED_DEMO"] == "1" {
                let today = try await database.services().company.today()
                if let logins = try await DemoCompany.seedIfEmpty(database, today: today) {
                    say("Demo company created. Logins (username / password):")
                    for login in logins {
                        say("  \(login.username.padding(toLength: 8, withPad: " ", startingAt: 0))  \(login.password)\(login.isAdmin ? "   (admin)" : "")")
                    }
                } else {
                    say("Database already has employees; demo data not added. Demo logins, if seeded earlier: admin / admin-demo-2026, alice / alice-demo-2026.")
                }
            }
            for warning in settings.warnings { logger.warning("\(warning)") }
            var directory: (any EmployeeDirectory)?
            if let configuration = settings.ldap {
                var ldapLogger = Logger(label: "sgserver.ldap")
                ldapLogger.logLevel = settings.logLevel
                let ldap = LDAPDirectory(configuration: configuration, logger: ldapLogger)
                if let problem = await ldap.probe() {
                    logger.warning("The LDAP directory cannot be used yet; logins get 503 until it can", metadata: ["error": "\(problem)"])
                } else {
                    logger.info("LDAP directory reachable", metadata: ["url": "\(configuration.url)"])
                }
                directory = ldap
            }
            let services = Services(
                database: database, directory: directory, tokenLifetime: settings.tokenLifetime,
                throttle: LoginThrottle(limits: settings.loginLimits), trustedProxies: settings.trustedProxies)
            let app = buildApplication(
                configuration: ServerConfiguration(host: settings.host, port: settings.port), services: services, logger: logger)
            say("sgserver listening on http://\(settings.host):\(settings.port) (database \(settings.databasePath), directory \(services.sessions.directory.kind))")
            try await app.runService()
        } catch let error as SGError {
            FileHandle.standardError.write(Data("sgserver: \(error.message)\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// Start-up settings from flags and environment, every problem reported at once.
struct Settings {
    var host: String
    var port: Int
    var databasePath: String
    var tokenLifetime: TimeInterval
    var logLevel: Logger.Level
    var loginLimits: LoginThrottle.Limits
    var trustedProxies: Set<String>
    /// The directory settings when SG_DIRECTORY is ldap.
    var ldap: LDAPConfiguration?
    /// Settings that work but deserve a line in the log.
    var warnings: [String]

    struct Problems: Error, CustomStringConvertible {
        let messages: [String]
        var description: String {
            "sgserver: invalid configuration:\n" + messages.map { "  - \($0)" }.joined(separator: "\n")
        }
    }

    static func resolve(flags: [String: String?], environment: [String: String]) throws -> Settings {
        func value(_ name: String) -> String? { (flags[name] ?? nil) ?? environment[name] }
        var problems: [String] = []

        let host = value("SG_HOST") ?? "127.0.0.1"
        if host.isEmpty { problems.append("SG_HOST / --host is empty") }

        var port = 8080
        if let text = value("SG_PORT") {
            if let number = Int(text), (1...65535).contains(number) { port = number } else {
                problems.append("SG_PORT / --port '\(text)' is not a port number (1-65535)")
            }
        }

        let databasePath = value("SG_DATABASE") ?? "./var/sgemployee.sqlite"
        if databasePath.isEmpty { problems.append("SG_DATABASE / --database is empty") }

        let directory = value("SG_DIRECTORY") ?? "local"
        var ldap: LDAPConfiguration?
        var warnings: [String] = []
        switch directory {
        case "local":
            break
        case "ldap":
            let resolution = LDAPConfiguration.resolve(value: value, label: LDAPOptions.label)
            problems += resolution.problems
            warnings += resolution.warnings
            ldap = resolution.configuration
        default:
            problems.append("SG_DIRECTORY / --directory '\(directory)' is not supported (supported: local, ldap)")
        }

        func count(_ name: String, _ flag: String, default fallback: Int) -> Int {
            guard let text = value(name) else { return fallback }
            guard let number = Int(text), (1...10_000).contains(number) else {
                problems.append("\(name) / --\(flag) '\(text)' is not a number between 1 and 10000")
                return fallback
            }
            return number
        }
        let loginLimits = LoginThrottle.Limits(
            perUsername: count("SG_LOGIN_MAX_FAILURES", "login-max-failures", default: 5),
            perAddress: count("SG_LOGIN_MAX_FAILURES_PER_ADDRESS", "login-max-failures-per-address", default: 20),
            window: Double(count("SG_LOGIN_FAILURE_WINDOW", "login-failure-window", default: 300)))

        var trustedProxies = Set<String>()
        for item in (value("SG_TRUSTED_PROXIES") ?? "").split(separator: ",") {
            let address = item.trimmingCharacters(in: .whitespaces)
            // Services compares them in canonical form; here they need only be addresses.
            if IPAddress.canonical(address) != nil {
                trustedProxies.insert(address)
            } else {
                problems.append("SG_TRUSTED_PROXIES / --trusted-proxies '\(address)' is not an IP address")
            }
        }

        var hours = 12.0
        if let text = value("SG_TOKEN_HOURS") {
            if let number = Double(text), number > 0, number <= 24 * 90 { hours = number } else {
                problems.append("SG_TOKEN_HOURS / --token-hours '\(text)' is not a number of hours between 0 and 2160")
            }
        }

        var level = Logger.Level.info
        if let text = value("SG_LOG_LEVEL") {
            if let parsed = Logger.Level(rawValue: text) { level = parsed } else {
                problems.append("SG_LOG_LEVEL / --log-level '\(text)' is not one of trace, debug, info, notice, warning, error, critical")
            }
        }

        guard problems.isEmpty else { throw Problems(messages: problems) }
        return Settings(
            host: host, port: port, databasePath: databasePath, tokenLifetime: hours * 3600, logLevel: level,
            loginLimits: loginLimits, trustedProxies: trustedProxies, ldap: ldap, warnings: warnings)
    }
}

/// Writes a line to standard output at once (unbuffered), so it shows promptly under `make` or in a log file.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
