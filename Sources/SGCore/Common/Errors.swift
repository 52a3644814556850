/// Every failure the rules can report. The API maps each case to an HTTP status and a problem type once,
/// at its edge; `sgadmin` prints `message` and exits non-zero.
public enum SGError: Error, Equatable, Sendable {
    /// Input that is well-formed but not acceptable (422). `field` names the offending input.
    case invalid(field: String, message: String)
    /// Input that cannot be read at all (400).
    case malformed(String)
    /// No valid credentials or token (401).
    case unauthenticated(String)
    /// The actor may not do this (403).
    case forbidden(String)
    /// Nothing with that identity, or nothing the actor may see (404).
    case notFound(String)
    /// The request is not in a state that allows the move (409).
    case wrongState(requestID: Int64, status: HolidayStatus, action: HolidayAction)
    /// The dates overlap a pending or approved request of the same employee (409).
    case overlap(requestID: Int64, start: CalendarDate, end: CalendarDate, status: HolidayStatus)
    /// Not enough days left in a year (409).
    case balanceExceeded(year: Int, requested: HalfDays, remaining: HalfDays, allowance: HalfDays)
    /// The days fit the year's balance but not what its accrual plan has earned so far (409): `requestable` may be
    /// requested today, and the request would fit from `fitsFrom` (nil: not before the year's last credit).
    case notYetEarned(year: Int, requested: HalfDays, requestable: HalfDays, fitsFrom: CalendarDate?)
    /// Any other conflict with the current data (409).
    case conflict(String)
    /// The resource changed since the version the client named (If-Match) (412).
    case preconditionFailed(String)
    /// A body larger than the endpoint accepts (413).
    case payloadTooLarge(String)
    /// A body of a kind the endpoint does not take, such as a photo that is neither JPEG nor PNG (415).
    case unsupportedMediaType(String)
    /// A dependency such as the directory is unreachable (503).
    case unavailable(String, retryAfterSeconds: Int)
    /// Too many attempts (429).
    case tooManyAttempts(String, retryAfterSeconds: Int)
    /// The database holds a schema newer than this binary knows.
    case schemaTooNew(String)
    /// A row holds a value this program cannot read: not the caller's doing, so not a conflict (500).
    case unreadableData(String)
    /// The company directory keeps the password, so the app can neither reset nor change it (409); `passwordURL`
    /// is the company's own page for that, when one is configured.
    case passwordHeldByDirectory(passwordURL: String?)

    public var message: String {
        switch self {
        case .invalid(let field, let message): "\(field): \(message)"
        case .malformed(let message): message
        case .unauthenticated(let message): message
        case .forbidden(let message): message
        case .notFound(let message): message
        case .wrongState(let id, let status, let action):
            Self.wrongStateMessage(id: id, status: status, action: action)
        case .overlap(let id, let start, let end, let status):
            "The dates overlap request \(id) (\(start) to \(end), \(status.rawValue)). Cancel or change that request first."
        case .balanceExceeded(let year, let requested, let remaining, let allowance):
            "\(requested) working day\(requested == .days(1) ? "" : "s") in \(year) would exceed the balance: "
                + "\(remaining) of \(allowance) day\(allowance == .days(1) ? "" : "s") remain once pending requests are counted."
        case .notYetEarned(let year, let requested, let requestable, let fitsFrom):
            "\(requested.inWords) in \(year) would be more than may be requested yet: \(requestable.inWords) of \(year)'s allowance "
                + "are earned or may be taken ahead by now"
                + (fitsFrom.map { "; with the days earned by \($0) the request would fit." } ?? ".")
        case .conflict(let message): message
        case .preconditionFailed(let message): message
        case .payloadTooLarge(let message): message
        case .unsupportedMediaType(let message): message
        case .unavailable(let message, _): message
        case .tooManyAttempts(let message, _): message
        case .schemaTooNew(let message): message
        case .unreadableData(let message): message
        case .passwordHeldByDirectory(let url):
            "Passwords are kept by the company directory, not by this app: "
                + (url.map { "change yours at \($0)." } ?? "change yours where you change your company password, or ask IT.")
        }
    }

    private static func wrongStateMessage(id: Int64, status: HolidayStatus, action: HolidayAction) -> String {
        let moves = status.allowedActions
        let allowed = moves.isEmpty
            ? "\(status.rawValue) is final: no move is allowed"
            : "allowed from \(status.rawValue): " + moves.map { "\($0.rawValue) (to \($0.to.rawValue))" }.joined(separator: ", ")
        return "Request \(id) is \(status.rawValue), so it cannot \(action.rawValue); \(allowed)."
    }
}
