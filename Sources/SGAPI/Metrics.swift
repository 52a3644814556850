import CoreMetrics
import Foundation
import Hummingbird
import Logging
import Prometheus
import SGCore
import SGStore
import Synchronization

/// What the server counts, served as Prometheus text by `GET /metrics` on the metrics listener
/// (`buildMetricsApplication`). swift-metrics' handles on a registry of the server's own; the handles a request
/// needs are made once per route, method and status and then looked up, so a request costs a dictionary lookup,
/// a counter increment and a histogram observation.
public final class ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    public let database: DatabaseMetrics
    private let requests = Mutex<[RequestKey: RequestMetrics]>([:])
    private let logins: [LoginResult: CoreMetrics.Counter]
    private let outbox: [OutboxStatus: CoreMetrics.Gauge]

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10),
        ]
        self.factory = factory
        database = DatabaseMetrics(factory: factory)
        logins = Dictionary(uniqueKeysWithValues: LoginResult.allCases.map {
            ($0, CoreMetrics.Counter(label: "sg_logins_total", dimensions: [("result", $0.rawValue)], factory: factory))
        })
        outbox = Dictionary(uniqueKeysWithValues: OutboxStatus.allCases.map {
            ($0, CoreMetrics.Gauge(label: "sg_outbox_messages", dimensions: [("status", $0.rawValue)], factory: factory))
        })
    }

    /// The factory for other parts of the server that count (the delivery worker).
    public var metricsFactory: any MetricsFactory { factory }

    enum LoginResult: String, CaseIterable {
        /// Logged in.
        case success
        /// A wrong username or password, or a deactivated account.
        case failed
        /// Refused by the failed-login throttle or the per-address bound on checks (429).
        case throttled
        /// As many password checks under way as allowed, or the directory down (503).
        case unavailable
    }

    /// Counts a login by how it ended: `error` is what it threw, nil for a success.
    func login(_ error: (any Error)?) {
        let result: LoginResult
        switch error as? SGError {
        case nil where error == nil: result = .success
        case .tooManyAttempts?: result = .throttled
        case .unavailable?: result = .unavailable
        default: result = .failed
        }
        logins[result]?.increment()
    }

    struct RequestKey: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: Int
    }

    struct RequestMetrics {
        let count: CoreMetrics.Counter
        let duration: CoreMetrics.Timer
    }

    func request(route: String, method: HTTPRequest.Method, status: Int, duration: Duration) {
        let key = RequestKey(route: route, method: method, status: status)
        let metrics = requests.withLock { cache in
            if let metrics = cache[key] { return metrics }
            // Methods a client makes up would each be a series: they share one label.
            let method = Self.knownMethods.contains(method) ? method.rawValue : "other"
            let metrics = RequestMetrics(
                count: CoreMetrics.Counter(
                    label: "sg_http_requests_total", dimensions: [("route", route), ("method", method), ("status", String(status))],
                    factory: factory),
                duration: CoreMetrics.Timer(
                    label: "sg_http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory))
            cache[key] = metrics
            return metrics
        }
        metrics.count.increment()
        metrics.duration.recordNanoseconds(duration.nanoseconds)
    }

    static let knownMethods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .patch, .delete, .options]

    /// The Prometheus text, with the outbox's depth read now.
    func exposition(delivery: DeliveryService) async -> ByteBuffer {
        if let counts = try? await delivery.counts() {
            for (status, gauge) in outbox { gauge.record(counts[status] ?? 0) }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16 * 1024)
        registry.emit(into: &bytes)
        return ByteBuffer(bytes: bytes)
    }
}

/// The metrics listener: `GET /metrics` only, on an address of its own (SG_METRICS_ADDRESS), never the API's, with
/// the API listener's limits (idle and body time-outs, a cap on connections): a scraper
/// needs one connection, and idle ones must not pile up.
public func buildMetricsApplication(
    host: String, port: Int, metrics: ServerMetrics, services: Services, limits: ConnectionLimits = ConnectionLimits(), logger: Logger
) -> some ApplicationProtocol {
    Application(
        router: buildMetricsRouter(metrics: metrics, services: services),
        server: .http1(configuration: limits.http1(counting: OpenConnections())),
        configuration: .init(address: .hostname(host, port: port), serverName: "sgserver-metrics"), logger: logger)
}

public func buildMetricsRouter(metrics: ServerMetrics, services: Services) -> Router<BasicRequestContext> {
    let router = Router()
    /// Every metric in Prometheus' text format.
    router.get("/metrics") { _, _ in
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: await metrics.exposition(delivery: services.core.delivery)))
    }
    return router
}
