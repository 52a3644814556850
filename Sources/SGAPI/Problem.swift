import Foundation
import Hummingbird
import Logging
import SGCore

/// An RFC 9457 problem document. Members that do not apply are nil, and left out.
struct Problem: Encodable {
    static let typePrefix = "urn:sgemployee:problem:"

    var type: String
    var title: String
    var status: Int
    var detail: String
    var field: String?
    var currentStatus: HolidayStatus?
    var allowedActions: [HolidayAction]?
    var conflictingRequestId: Int64?
    /// balance-exceeded under an accrual plan: the first day ("2027-04-01") from which the request would fit what
    /// the plan has earned by then.
    var fitsFrom: String?
    /// password-held-by-directory: the company's own page for changing the password, when configured.
    var passwordUrl: String?

    init(slug: String, title: String, status: HTTPResponse.Status, detail: String) {
        self.type = Self.typePrefix + slug
        self.title = title
        self.status = status.code
        self.detail = detail
    }

}

/// Every error the application can meet, mapped to status and problem type in this one place.
struct ProblemMapping {
    var problem: Problem
    var headers: HTTPFields = [:]

    init(problem: Problem) {
        self.problem = problem
    }

    static func from(_ error: any Error, logger: Logger) -> ProblemMapping {
        let problem: Problem
        switch error {
        case SGError.unreadableData(let message):
            // The operator's to mend: the log has the detail, the client only that it is the server's fault.
            logger.error("Unreadable data", metadata: ["error": "\(message)"])
            problem = Problem(slug: "internal", title: "Internal error", status: .internalServerError,
                              detail: "The server could not read its own data; it has been logged.")
        case let error as SGError:
            return ProblemMapping(error)
        case RetryKeyProblem.reused(let route):
            problem = Problem(
                slug: "idempotency-key-reused", title: "Idempotency key reused", status: .unprocessableContent,
                detail: "This Idempotency-Key was sent with another change (\(route), or another body) within the last 24 hours. "
                    + "Use a new key for a new change, and a key again only to send the very same change again.")
        case RetryKeyProblem.inFlight, RetryKeyProblem.taken:
            problem = Problem(
                slug: "idempotency-key-in-use", title: "Change with this key under way", status: .conflict,
                detail: "A change with this Idempotency-Key is under way. Send it again in a moment to get its answer.")
        case let error as MethodNotAllowed:
            var mapping = ProblemMapping(problem: Problem(
                slug: "method-not-allowed", title: "Method not allowed", status: .methodNotAllowed,
                detail: "\(error.path) does not serve \(error.method.rawValue); it serves \(error.allowHeader)."))
            mapping.headers[.allow] = error.allowHeader
            return mapping
        case let error as any HTTPResponseError:
            // Errors raised by the framework itself: an unknown route, a body over the limit, ...
            let detail = (error as? HTTPError)?.body
            switch error.status {
            case .contentTooLarge:
                problem = Problem(slug: "payload-too-large", title: "Payload too large", status: .contentTooLarge,
                                  detail: "The body is larger than this endpoint accepts (\(AppRequestContext.maximumJSONBody / 1024) KiB for JSON).")
            case .notFound:
                problem = Problem(slug: "not-found", title: "Not found", status: .notFound,
                                  detail: "There is no such resource. Paths start with /v1/.")
            case .badRequest:
                problem = Problem(slug: "malformed-request", title: "Malformed request", status: .badRequest,
                                  detail: detail ?? "The request could not be read.")
            default:
                problem = Problem(slug: "http-\(error.status.code)", title: error.status.reasonPhrase, status: error.status,
                                  detail: detail ?? error.status.reasonPhrase)
            }
        default:
            logger.error("Unhandled error: \(String(reflecting: error))")
            problem = Problem(slug: "internal", title: "Internal error", status: .internalServerError,
                              detail: "Something went wrong on our side; it has been logged.")
        }
        return ProblemMapping(problem: problem)
    }

    init(_ error: SGError) {
        switch error {
        case .invalid(let field, _):
            problem = Problem(slug: "validation-failed", title: "Invalid input", status: .unprocessableContent, detail: error.message)
            problem.field = field
        case .malformed:
            problem = Problem(slug: "malformed-request", title: "Malformed request", status: .badRequest, detail: error.message)
        case .unauthenticated:
            problem = Problem(slug: "unauthenticated", title: "Not authenticated", status: .unauthorized, detail: error.message)
            headers[.wwwAuthenticate] = "Bearer"
        case .forbidden:
            problem = Problem(slug: "forbidden", title: "Forbidden", status: .forbidden, detail: error.message)
        case .notFound:
            problem = Problem(slug: "not-found", title: "Not found", status: .notFound, detail: error.message)
        case .wrongState(_, let status, _):
            problem = Problem(slug: "wrong-state", title: "Not allowed in this state", status: .conflict, detail: error.message)
            problem.currentStatus = status
            problem.allowedActions = status.allowedActions
        case .overlap(let id, _, _, _):
            problem = Problem(slug: "overlap", title: "Overlapping request", status: .conflict, detail: error.message)
            problem.conflictingRequestId = id
        case .balanceExceeded:
            problem = Problem(slug: "balance-exceeded", title: "Not enough days left", status: .conflict, detail: error.message)
        case .notYetEarned(_, _, _, let fitsFrom):
            // A refusal of the balance as clients already know it; `fitsFrom` says when it would fit.
            problem = Problem(slug: "balance-exceeded", title: "Not enough days left", status: .conflict, detail: error.message)
            problem.fitsFrom = fitsFrom?.description
        case .conflict:
            problem = Problem(slug: "conflict", title: "Conflict", status: .conflict, detail: error.message)
        case .preconditionFailed:
            problem = Problem(slug: "precondition-failed", title: "Changed since read", status: .preconditionFailed, detail: error.message)
        case .payloadTooLarge:
            problem = Problem(slug: "payload-too-large", title: "Payload too large", status: .contentTooLarge, detail: error.message)
        case .unsupportedMediaType:
            problem = Problem(
                slug: "unsupported-media-type", title: "Unsupported media type", status: .unsupportedMediaType, detail: error.message)
        case .unavailable(_, let retry):
            problem = Problem(slug: "unavailable", title: "Service unavailable", status: .serviceUnavailable, detail: error.message)
            headers[.retryAfter] = String(retry)
        case .tooManyAttempts(_, let retry):
            problem = Problem(slug: "too-many-attempts", title: "Too many attempts", status: .tooManyRequests, detail: error.message)
            headers[.retryAfter] = String(retry)
        case .schemaTooNew:
            problem = Problem(slug: "unavailable", title: "Service unavailable", status: .serviceUnavailable, detail: error.message)
        case .unreadableData:
            problem = Problem(slug: "internal", title: "Internal error", status: .internalServerError, detail: error.message)
        case .passwordHeldByDirectory(let url):
            problem = Problem(
                slug: "password-held-by-directory", title: "Password kept by the company directory", status: .conflict,
                detail: error.message)
            problem.passwordUrl = url
        }
    }

    func response() -> Response {
        var fields = headers
        fields[.contentType] = "application/problem+json"
        // A problem document always encodes; the fallback only keeps the status should that ever change.
        let body = (try? JSON.encoder.encode(problem)) ?? Data()
        return Response(
            status: HTTPResponse.Status(code: problem.status), headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
