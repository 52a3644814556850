import Hummingbird
import SGStore

/// One check per request that nothing has committed since what the request's caches hold was read: the check
/// made while authenticating (the session lookup) serves the year-view cache too (`AppDatabase.withSharedCommitCheck`).
struct SharedCommitCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    let database: AppDatabase

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await database.withSharedCommitCheck { try await next(request, context) }
    }
}
