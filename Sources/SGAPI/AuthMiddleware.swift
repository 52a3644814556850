import Hummingbird
import SGCore

/// Requires `Authorization: Bearer <token>` naming a live token of an active employee.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let sessions: SessionService
    /// Each change (any method but GET and HEAD) is taken from the caller's write budget; 429 past it. Here rather
    /// than in a middleware of its own, which would cost every request a layer.
    let writeLimit: WriteRateLimit?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The values as sent: the plain subscript joins repeated fields with commas, a string built for every request.
        let values = request.headers[values: .authorization]
        guard let header = values.first else {
            throw SGError.unauthenticated("Log in first: send Authorization: Bearer <token>.")
        }
        guard values.count == 1 else {
            throw SGError.unauthenticated("Send one Authorization header, not \(values.count).")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        // The scheme is case-insensitive; compared byte by byte (ASCII letters folded) rather than lowercased.
        guard parts.count == 2, parts[0].utf8.elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }) else {
            throw SGError.unauthenticated("The Authorization header must be 'Bearer <token>'.")
        }
        var trimmed = parts[1]
        while let first = trimmed.first, first == " " || first == "\t" { trimmed.removeFirst() }
        while let last = trimmed.last, last == " " || last == "\t" { trimmed.removeLast() }
        let token = String(trimmed)
        guard let session = try await sessions.session(accessToken: token) else {
            throw SGError.unauthenticated("The token is unknown, expired or revoked. Refresh it, or log in again.")
        }
        if let writeLimit, request.method != .get, request.method != .head {
            try writeLimit.take(employeeID: session.employee.id)
        }
        var context = context
        context.employee = session.employee
        context.token = token
        context.sessionID = session.sessionID
        return try await next(request, context)
    }
}
