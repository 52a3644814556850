import Hummingbird
import SGCore
import SGStore

/// Requires `Authorization: Bearer <token>` naming a live token of an active employee.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let sessions: Sessions

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else {
            throw SGError.unauthenticated("Log in first: send Authorization: Bearer <token>.")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw SGError.unauthenticated("The Authorization header must be 'Bearer <token>'.")
        }
        let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
        guard let employee = try await sessions.employee(forToken: token) else {
            throw SGError.unauthenticated("The token is unknown, expired or revoked. Log in again.")
        }
        var context = context
        context.employee = employee
        context.token = token
        return try await next(request, context)
    }
}
