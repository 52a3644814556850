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

/// One bound per request on the time its writes together wait for the database's write lock
/// (`AppDatabase.withWriteWaitBound`): past it, 503 with Retry-After at once.
struct WriteWaitBoundMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await AppDatabase.withWriteWaitBound { try await next(request, context) }
    }
}
