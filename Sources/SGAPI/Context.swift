import Hummingbird
import Logging
import NIOCore
import SGCore

/// Per-request state: the authenticated employee, once `AuthMiddleware` has found one.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var employee: Employee?
    /// The bearer token as presented, kept for logout.
    public var token: String?
    /// The session the bearer token belongs to.
    public var sessionID: Int64?
    /// The connection the request came on.
    private let channel: any Channel

    /// The IP address of the connection's peer, used to throttle failed logins per client; nil when unknown. Formatted
    /// when asked (logins and password changes ask), not for every request.
    public var clientAddress: String? { channel.remoteAddress?.ipAddress }

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// JSON bodies; photos have their own limit. Large enough for the largest body the contract accepts: a
    /// notice's 10,000-character body and 200-character title written entirely as escaped surrogate pairs
    /// (12 bytes a character, about 123 KB).
    public static let maximumJSONBody = 128 * 1024
    public var maxUploadSize: Int { Self.maximumJSONBody }

    /// The authenticated employee; routes behind `AuthMiddleware` always have one.
    func requireEmployee() throws -> Employee {
        guard let employee else { throw SGError.unauthenticated("Log in first: send Authorization: Bearer <token>.") }
        return employee
    }

    func requireAdmin() throws -> Employee {
        let employee = try requireEmployee()
        guard employee.isAdmin else { throw SGError.forbidden("This needs an admin account.") }
        return employee
    }
}
