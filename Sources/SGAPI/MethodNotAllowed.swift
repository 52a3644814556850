import Hummingbird

/// A path the router serves, asked with a method it does not serve: 405 with `Allow` (RFC 9110 §15.5.6).
struct MethodNotAllowed: Error {
    let method: HTTPRequest.Method
    let path: String
    let allowed: [HTTPRequest.Method]

    var allowHeader: String { allowed.map(\.rawValue).joined(separator: ", ") }
}

/// Sits in front of the router's not-found responder only (it is added after every route, and Hummingbird applies
/// a middleware to the routes added after it and to the not-found responder): when the path matches a route
/// under another method, the answer is 405 naming the methods that path serves, not 404.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    private let routes: [(path: RouterPath, methods: [HTTPRequest.Method])]

    init(routes: [Router<AppRequestContext>.RouteDescription]) {
        var byPath: [String: (path: RouterPath, methods: [HTTPRequest.Method])] = [:]
        for route in routes {
            byPath[route.path.description, default: (route.path, [])].methods.append(route.method)
        }
        self.routes = byPath.values.sorted { $0.path.description < $1.path.description }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let segments = request.uri.path.split(separator: "/", omittingEmptySubsequences: true)
        let allowed = routes.filter { Self.matches($0.path, segments) }.flatMap(\.methods)
        guard !allowed.isEmpty, !allowed.contains(request.method) else {
            return try await next(request, context)
        }
        throw MethodNotAllowed(
            method: request.method, path: request.uri.path, allowed: allowed.sorted { $0.rawValue < $1.rawValue })
    }

    static func matches(_ path: RouterPath, _ segments: [Substring]) -> Bool {
        path.components.count == segments.count && zip(path.components, segments).allSatisfy { $0 ~= $1 }
    }
}
