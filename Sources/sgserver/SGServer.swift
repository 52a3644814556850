import ArgumentParser
import CoreMetrics
import Foundation
import Hummingbird
import Logging
import SGAPI
import SGCore
import SGDelivery
import SGLDAP
import SGSettings
import SGSQLite
import SGStore
import ServiceLifecycle

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

    @OptionGroup(title: "Database (a SQLite file is created and migrated on start)")
    var database: DatabaseOptions

    @Option(help: "Where logins are checked: local (accounts in the database) or ldap (the SG_LDAP_* settings) [SG_DIRECTORY, default local].")
    var directory: String?

    @Option(help: "Minutes an access token works; the client then refreshes it [SG_ACCESS_TOKEN_MINUTES, default 15].")
    var accessTokenMinutes: String?

    @Option(help: "Days a session lasts from its login: its refresh tokens work until then [SG_REFRESH_TOKEN_DAYS, default 30].")
    var refreshTokenDays: String?

    @Flag(help: "On an empty database, create a demo company and print its logins [SG_SEED_DEMO=1].")
    var seedDemo = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error [SG_LOG_LEVEL, default info].")
    var logLevel: String?

    @Option(help: "Log lines as text, or json: one JSON object per line [SG_LOG_FORMAT, default text].")
    var logFormat: String?

    @Option(help: "HOST:PORT to serve GET /metrics on (Prometheus), apart from the API; off: no metrics [SG_METRICS_ADDRESS, default off].")
    var metricsAddress: String?

    @Option(help: "Failed logins allowed per username within the failure window [SG_LOGIN_MAX_FAILURES, default 5].")
    var loginMaxFailures: String?

    @Option(help: "Failed logins allowed per client address within the failure window [SG_LOGIN_MAX_FAILURES_PER_ADDRESS, default 20].")
    var loginMaxFailuresPerAddress: String?

    @Option(help: "Seconds a failed login counts against its username and address [SG_LOGIN_FAILURE_WINDOW, default 300].")
    var loginFailureWindow: String?

    @Option(help: "Password checks (bcrypt, LDAP binds) under way at once; more logins get 503 at once [SG_LOGIN_CHECKS_IN_FLIGHT, default twice the processors, at least 4].")
    var loginChecksInFlight: String?

    @Option(help: "Password checks under way at once for one client address (IPv6: one /64); more get 429 at once [SG_LOGIN_CHECKS_PER_ADDRESS, default 2].")
    var loginChecksPerAddress: String?

    @Option(help: "Changes (POST, PUT, PATCH, DELETE) one employee may make a minute; beyond, 429 [SG_WRITES_PER_MINUTE, default 120].")
    var writesPerMinute: String?

    @Option(help: "Seconds a connection may go without a complete request head, while it arrives and between requests [SG_IDLE_TIMEOUT, default 30].")
    var idleTimeout: String?

    @Option(help: "Seconds a request's body may take to arrive after its head [SG_BODY_TIMEOUT, default 30].")
    var bodyTimeout: String?

    @Option(help: "Connections served at once; more are closed when accepted [SG_MAX_CONNECTIONS, default 2000, at most the open-file limit less 256].")
    var maxConnections: String?

    @Option(help: "Comma-separated addresses of reverse proxies whose X-Forwarded-For names the client, for throttling logins per client [SG_TRUSTED_PROXIES, default none].")
    var trustedProxies: String?

    @Option(help: "Serve the web app at /: on or off [SG_WEB_APP, default on].")
    var webApp: String?

    @Option(help: "Serve the web app's files from this folder, read at each request, instead of the embedded ones: for working on clients/web [SG_WEB_ROOT].")
    var webRoot: String?

    @OptionGroup(title: "LDAP directory (with --directory ldap)")
    var ldap: LDAPOptions

    @OptionGroup(title: "E-mail and webhooks")
    var delivery: DeliveryOptions

    func run() async throws {
        MallocTuning.keepFreedMemory()
        SQLiteLibrary.configureForThisProcess()
        let environment = ProcessInfo.processInfo.environment
        let settings: ServerSettings
        do throws(SettingsProblems) {
            settings = try ServerSettings.resolve(
                flags: [
                    "SG_HOST": host, "SG_PORT": port, "SG_DIRECTORY": directory,
                    "SG_ACCESS_TOKEN_MINUTES": accessTokenMinutes,
                    "SG_REFRESH_TOKEN_DAYS": refreshTokenDays, "SG_LOG_LEVEL": logLevel, "SG_LOGIN_MAX_FAILURES": loginMaxFailures,
                    "SG_LOGIN_MAX_FAILURES_PER_ADDRESS": loginMaxFailuresPerAddress,
                    "SG_LOGIN_FAILURE_WINDOW": loginFailureWindow, "SG_TRUSTED_PROXIES": trustedProxies,
                    "SG_LOGIN_CHECKS_IN_FLIGHT": loginChecksInFlight, "SG_LOGIN_CHECKS_PER_ADDRESS": loginChecksPerAddress,
                    "SG_WRITES_PER_MINUTE": writesPerMinute, "SG_IDLE_TIMEOUT": idleTimeout, "SG_BODY_TIMEOUT": bodyTimeout,
                    "SG_MAX_CONNECTIONS": maxConnections, "SG_LOG_FORMAT": logFormat, "SG_METRICS_ADDRESS": metricsAddress,
                    "SG_WEB_APP": webApp, "SG_WEB_ROOT": webRoot,
                ].merging(ldap.flags) { flag, _ in flag }.merging(delivery.flags) { flag, _ in flag }.merging(database.flags) { flag, _ in flag },
                environment: environment)
        } catch {
            FileHandle.standardError.write(Data((error.report("sgserver: invalid configuration") + "\n").utf8))
            throw ExitCode(2)
        }

        switch settings.logFormat {
        case .json: LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
        case .text: LoggingSystem.bootstrap { label in TextLogHandler(label: label) }
        }
        var logger = Logger(label: "sgserver")
        logger.logLevel = settings.logLevel
        do {
            // Tells `sgadmin restore` that the SQLite file is in use, for as long as this process lives.
            let hold = try settings.database.sqlitePath.map(DatabaseHold.serving)
            defer { withExtendedLifetime(hold) {} }
            // SQLite's log is checkpointed by WALCheckpointService, not by the commits of requests.
            let database = try settings.database.open(schema: .migrate, checkpointing: .background)
            let schema = try database.appliedMigrations()
            // The newest migration names the schema; `sgadmin migrate` lists them all.
            logger.info("Database ready", metadata: [
                "database": "\(settings.database.shown)", "schema": "\(schema.last ?? "none")", "migrations": "\(schema.count)",
            ])
            if seedDemo || environment["SG_SEED_DEMO"] == "1" {
                let today = try await database.services().company.today()
                if let logins = try await DemoCompany.seedIfEmpty(database, today: today) {
                    say("Demo company created. Logins (username / password):")
                    for login in logins {
                        let role = login.isAdmin ? "   (admin)" : login.approves.isEmpty ? "" : "   (approves \(login.approves.joined(separator: ", ")))"
                        say("  \(login.username.padding(toLength: 8, withPad: " ", startingAt: 0))  \(login.password)\(role)")
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
                database: database, directory: directory, sessionLifetimes: settings.sessionLifetimes,
                throttle: LoginThrottle(limits: settings.loginLimits), trustedProxies: settings.trustedProxies,
                resetThrottle: LoginThrottle(limits: settings.loginLimits, counting: "password-reset attempts"),
                passwordChecks: PasswordCheckLimit(limits: settings.loginChecks),
                writeLimit: WriteRateLimit(perMinute: settings.writesPerMinute),
                metrics: settings.metricsAddress == nil ? nil : ServerMetrics(), destinations: settings.delivery.destinations,
                webApp: {
                    switch settings.webApp {
                    case .embedded: .embedded
                    case .folder(let path): .folder(path)
                    case .off: WebAppSource.none
                    }
                }())
            let worker = try await deliveryWorker(
                settings.delivery, database: database, logger: logger, metrics: services.metrics?.metricsFactory)
            var feedLogger = Logger(label: "sgserver.feeds")
            feedLogger.logLevel = settings.logLevel
            let feeds = CompanyFeedRefresher(
                feeds: services.feeds, fetcher: FeedFetcher(configuration: FeedFetchConfiguration(
                    caFile: settings.delivery.webhooks.caFile, destinations: settings.delivery.destinations)),
                logger: feedLogger)
            let limits = connectionLimits(settings, logger: logger)
            let shownHost = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
            let shown = (database: settings.database.shown, directory: services.sessions.directory.kind, webApp: settings.webApp != .off)
            // Said once the port is bound: a port already taken is reported as such below, not after "listening".
            let app = buildApplication(
                configuration: ServerConfiguration(host: settings.host, port: settings.port, limits: limits),
                services: services, logger: logger
            ) { port in
                say("sgserver listening on http://\(shownHost):\(port) (database \(shown.database), directory \(shown.directory))")
                if shown.webApp { say("The web app: http://\(shownHost == "0.0.0.0" ? "127.0.0.1" : shownHost):\(port)/") }
            }
            // A group stops its services in reverse order: the server stops taking requests first, then the worker
            // finishes the sends under way.
            var running: [any Service] = [
                NamedService("delivery worker", worker), NamedService("feed refresher", feeds), NamedService("API", app),
            ]
            if let address = settings.metricsAddress, let metrics = services.metrics {
                running.append(NamedService("metrics", buildMetricsApplication(
                    host: address.host, port: address.port, metrics: metrics, services: services,
                    limits: ConnectionLimits(
                        idleTimeout: limits.idleTimeout, bodyTimeout: limits.bodyTimeout,
                        maximumConnections: min(limits.maximumConnections, ConnectionLimits.metricsConnections)),
                    logger: logger)))
                say("metrics on http://\(address.host.contains(":") ? "[\(address.host)]" : address.host):\(address.port)/metrics")
            }
            let group = ServiceGroup(configuration: .init(
                services: running, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
        } catch let error as SGError {
            FileHandle.standardError.write(Data("sgserver: \(error.message)\n".utf8))
            throw ExitCode(1)
        } catch where String(describing: error).contains("Address already in use") {
            let metrics = settings.metricsAddress.map { " or the metrics address \($0.host):\($0.port)" } ?? ""
            FileHandle.standardError.write(Data("""
                sgserver: \(settings.host):\(settings.port)\(metrics) is already in use, by another sgserver or another program. \
                Stop it, or choose another port: --port or SG_PORT (make run PORT=8081).

                """.utf8))
            throw ExitCode(1)
        }
    }
}

/// Writes how this server delivers into the database (so that messages composed by `sgadmin` and other servers
/// agree with it) and makes the worker that sends the outbox.
func deliveryWorker(
    _ settings: DeliverySettings, database: AppDatabase, logger: Logger, metrics: (any MetricsFactory)? = nil
) async throws -> DeliveryWorker {
    let delivery = database.services(retryPolicy: settings.retryPolicy).delivery
    try await delivery.announce(settings.configuration)
    if settings.smtp == nil { logger.info("e-mail is off (no SG_SMTP_URL)") }
    let platforms = settings.push.platforms.map(\.rawValue).sorted()
    logger.info(platforms.isEmpty ? "push is off (no SG_APNS_*, SG_FCM_* or SG_VAPID_* settings)" : "push to \(platforms.joined(separator: ", "))")
    var workerLogger = Logger(label: "sgserver.delivery")
    workerLogger.logLevel = logger.logLevel
    return DeliveryWorker(
        delivery: delivery, email: settings.smtp.map(SMTPSender.init(configuration:)),
        webhooks: WebhookSender(configuration: settings.webhooks), push: PushSender(configuration: settings.push),
        options: DeliveryWorker.Options(pollInterval: settings.pollInterval, reminderAfterHours: settings.reminderAfterHours), logger: workerLogger,
        metrics: metrics ?? NOOPMetricsHandler.instance)
}

/// The connection limits from the settings, with the process's open-file limit raised as far as allowed and the
/// connection cap kept below it (each connection takes a file descriptor; the database and the directory take a few).
func connectionLimits(_ settings: ServerSettings, logger: Logger) -> ConnectionLimits {
    let files = ConnectionLimits.raiseOpenFileLimit()
    var maximum = settings.maxConnections
    if files > 0, maximum > files - 256 {
        maximum = max(1, files - 256)
        logger.warning(
            "SG_MAX_CONNECTIONS \(settings.maxConnections) is more than the open-file limit (\(files)) leaves room for: serving \(maximum) at once. Raise the limit (ulimit -n, LimitNOFILE=) to serve more.")
    }
    logger.info("Connections", metadata: [
        "open-file limit": "\(files)", "max connections": "\(maximum)", "idle timeout": "\(settings.idleTimeout) s",
        "body timeout": "\(settings.bodyTimeout) s",
    ])
    return ConnectionLimits(
        idleTimeout: .seconds(settings.idleTimeout), bodyTimeout: .seconds(settings.bodyTimeout), maximumConnections: maximum)
}

/// A service under a name of its own: the service group logs each service it runs, and a service's default
/// description is every stored property, configuration and its secrets included.
struct NamedService<Wrapped: Service>: Service, CustomStringConvertible {
    let description: String
    let wrapped: Wrapped

    init(_ name: String, _ wrapped: Wrapped) {
        description = name
        self.wrapped = wrapped
    }

    func run() async throws { try await wrapped.run() }
}

/// Writes a line to standard output at once (unbuffered), so it shows promptly under `make` or in a log file.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
