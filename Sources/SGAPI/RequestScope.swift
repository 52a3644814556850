import CoreMetrics
import Foundation
import Hummingbird
import Logging
import Prometheus
import SGCore
import SGStore
import Synchronization

/// Outermost, and the one layer every request passes before its route: four concerns in one middleware, since each
/// layer costs every request an async call, a copy of its context and a hop of its task (see docs/performance.md).
///
/// - Gives every response its `X-Request-ID` and puts the id into the request's logger, so every line logged for the
///   request carries it (`hb.request.id`). The id is Hummingbird's own unless a trusted proxy (`SG_TRUSTED_PROXIES`)
///   sent one that is a plain token.
/// - Runs the request as one unit of work on the database (`AppDatabase.withUnitOfWork`): one check of the commit
///   counter serves the session lookup and the year-view cache, and all its writes together wait for the write lock
///   at most `AppDatabase.busyTimeout` (past it, 503 with Retry-After at once).
/// - Turns every thrown error, including the router's own 404, into application/problem+json.
/// - Counts the request by route pattern and status.
struct RequestScopeMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let database: AppDatabase
    let trustedProxies: Set<String>
    let metrics: ServerMetrics?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let id: String
        if let forwarded = request.headers[.xRequestID], RequestIdentity.isPlainToken(forwarded),
           !trustedProxies.isEmpty, let peer = context.clientAddress, trustedProxies.contains(IPAddress.canonical(peer) ?? peer)
        {
            id = forwarded
            context.logger[metadataKey: "hb.request.id"] = .string(forwarded)
        } else {
            id = context.logger[metadataKey: "hb.request.id"]?.description ?? RequestID().description
        }
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await database.withUnitOfWork { try await next(request, context) }
        } catch {
            response = ProblemMapping.from(error, logger: context.logger).response()
        }
        // Appended: no route sets it, and setting it through the subscript would look for an earlier one first.
        response.headers.append(HTTPFields.Element(name: .xRequestID, value: id))
        observe(request, context, status: response.status.code, since: start)
        return response
    }

    private func observe(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let duration = ContinuousClock.now - start
        let route = context.endpointPath ?? "NotFound"
        metrics?.request(route: route, method: request.method, status: status, duration: duration)
        context.logger.debug("Request served", metadata: [
            "method": "\(request.method.rawValue)", "route": "\(route)", "status": "\(status)",
            "ms": "\(Double(duration.nanoseconds) / 1_000_000)",
        ])
    }
}

enum RequestIdentity {
    /// 1-128 characters of letters, digits and `-._:`: what proxies send (UUIDs, hex) and safe in a log line.
    static func isPlainToken(_ value: String) -> Bool {
        let bytes = value.utf8
        guard (1...128).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
        }
    }
}

extension HTTPFields.Element.Name {
    static let xRequestID = Self("X-Request-ID")!
}
