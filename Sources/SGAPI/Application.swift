import Foundation
import Hummingbird
import Logging
import SGCore
import SGStore

public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var limits: ConnectionLimits

    public init(host: String = "127.0.0.1", port: Int = 8080, limits: ConnectionLimits = ConnectionLimits()) {
        self.host = host
        self.port = port
        self.limits = limits
    }
}

/// Wires the services into a router and an application. Tests build the very same application.
/// `onListening` runs once the server listens, with the port it is bound to. Without a logger (the tests'
/// servers) nothing is logged: a test that provokes an error checks the answer, not the log.
public func buildApplication(
    configuration: ServerConfiguration, services: Services,
    logger: Logger = Logger(label: "sgserver", factory: { _ in SwiftLogNoOpLogHandler() }),
    onListening: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    Application(
        router: buildRouter(services: services),
        server: .http1(configuration: configuration.limits.http1(counting: OpenConnections())),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "sgserver"),
        services: services.database.checkpointsInBackground ? [WALCheckpointService(database: services.database, logger: logger)] : [],
        onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
        logger: logger)
}

public func buildRouter(services: Services) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    // Added before any route so it wraps every route and the not-found responder; the first outermost.
    router.add(middleware: RequestScopeMiddleware(
        database: services.database, trustedProxies: services.trustedProxies, metrics: services.metrics))

    let healthBody = ByteBuffer(bytes: (try? JSON.encoder.encode(DTO.Health(status: "ok"))) ?? Data())
    /// Liveness: answers once the database is open and migrated (the server only listens after that).
    router.get("/v1/health") { _, _ in
        JSON.response(healthBody)
    }
    Readiness(services: services).addRoute(to: router)
    AuthController(services: services).addPublicRoutes(to: router)
    AbsencesController(services: services).addFeedRoutes(to: router)

    let authenticated = router.group("/v1")
        .add(middleware: AuthMiddleware(sessions: services.sessions, writeLimit: services.writeLimit))
    AuthController(services: services).addRoutes(to: authenticated)
    ProfileController(services: services).addRoutes(to: authenticated)
    DevicesController(services: services).addRoutes(to: authenticated)
    MyHolidaysController(services: services).addRoutes(to: authenticated)
    HolidaysController(services: services).addRoutes(to: authenticated)
    EmployeesController(services: services).addRoutes(to: authenticated)
    NoticesController(services: services).addRoutes(to: authenticated)
    CompanyController(services: services).addRoutes(to: authenticated)
    WebhooksController(services: services).addRoutes(to: authenticated)
    LeaveTypesController(services: services).addRoutes(to: authenticated)
    HolidayCalendarsController(services: services).addRoutes(to: authenticated)
    AbsencesController(services: services).addRoutes(to: authenticated)
    ReportsController(services: services).addRoutes(to: authenticated)
    HomeController(services: services).addRoutes(to: authenticated)
    TeamsController(services: services).addRoutes(to: authenticated)
    OutboxController(services: services).addRoutes(to: authenticated)

    // Last, after every route: these only wrap the not-found responder.
    router.add(middleware: WebAppMiddleware(source: services.webApp))
    router.add(middleware: MethodNotAllowedMiddleware(routes: router.routes))
    return router
}
