import Foundation

/// What a client says of itself when it logs in, shown in the list of sessions.
public struct SessionClient: Sendable, Equatable {
    public var userAgent: String?
    public var deviceName: String?

    public init(userAgent: String? = nil, deviceName: String? = nil) {
        self.userAgent = userAgent
        self.deviceName = deviceName
    }

    public static let maximumDeviceName = 100
    public static let maximumUserAgent = 200

    /// `deviceName` as the client chose it: one line of at most `maximumDeviceName` characters (a 422 otherwise),
    /// blank is none. `userAgent` as the header said it, kept for display only: cut to `maximumUserAgent`
    /// characters, control characters dropped.
    public static func validated(userAgent: String?, deviceName: String?) throws -> SessionClient {
        var name: String?
        if let deviceName, !deviceName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            name = try TextRules.line(deviceName, field: "deviceName", maximum: maximumDeviceName)
        }
        let printable = (userAgent ?? "").unicodeScalars.filter { !TextRules.isControl($0) }.prefix(maximumUserAgent)
        let agent = String(String.UnicodeScalarView(printable)).trimmingCharacters(in: .whitespaces)
        return SessionClient(userAgent: agent.isEmpty ? nil : agent, deviceName: name)
    }
}

/// How long access tokens and sessions last (SG_ACCESS_TOKEN_MINUTES, SG_REFRESH_TOKEN_DAYS).
public struct SessionLifetimes: Sendable, Equatable {
    public var access: TimeInterval
    public var refresh: TimeInterval

    public init(access: TimeInterval = SessionService.defaultAccessLifetime, refresh: TimeInterval = SessionService.defaultRefreshLifetime) {
        self.access = access
        self.refresh = refresh
    }
}

/// A session as its owner sees it.
public struct SessionSummary: Sendable, Equatable {
    public var id: Int64
    public var createdAt: Date
    /// The login or the last refresh: within an access token's lifetime of the last request.
    public var lastUsedAt: Date
    /// When the session ends at the latest (its refresh tokens stop working).
    public var expiresAt: Date
    public var client: SessionClient

    public init(id: Int64, createdAt: Date, lastUsedAt: Date, expiresAt: Date, client: SessionClient) {
        self.id = id
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
        self.client = client
    }
}

/// The employee behind a live access token, and the session it belongs to.
public struct AuthenticatedSession: Sendable {
    public var employee: Employee
    public var sessionID: Int64

    public init(employee: Employee, sessionID: Int64) {
        self.employee = employee
        self.sessionID = sessionID
    }
}

/// A session to store, with its first tokens (digests only).
public struct NewSession: Sendable {
    public var employeeID: Int64
    public var at: Date
    public var expiresAt: Date
    public var handle: String
    public var refreshDigest: Data
    public var accessDigest: Data
    public var accessExpiresAt: Date
    public var client: SessionClient

    public init(
        employeeID: Int64, at: Date, expiresAt: Date, handle: String, refreshDigest: Data, accessDigest: Data,
        accessExpiresAt: Date, client: SessionClient
    ) {
        self.employeeID = employeeID
        self.at = at
        self.expiresAt = expiresAt
        self.handle = handle
        self.refreshDigest = refreshDigest
        self.accessDigest = accessDigest
        self.accessExpiresAt = accessExpiresAt
        self.client = client
    }
}

/// A refresh token as presented: the session it names and its digest.
public struct RefreshClaim: Sendable {
    public var handle: String
    public var digest: Data
    public var at: Date

    public init(handle: String, digest: Data, at: Date) {
        self.handle = handle
        self.digest = digest
        self.at = at
    }
}

/// What a refresh stores in place of the token it uses up.
public struct NextTokens: Sendable {
    public var refreshDigest: Data
    public var accessDigest: Data
    /// The new access token's lifetime; it never outlives its session.
    public var accessLifetime: TimeInterval

    public init(refreshDigest: Data, accessDigest: Data, accessLifetime: TimeInterval) {
        self.refreshDigest = refreshDigest
        self.accessDigest = accessDigest
        self.accessLifetime = accessLifetime
    }
}

public enum RefreshOutcome: Sendable {
    case refreshed(employee: Employee, sessionID: Int64, accessExpiresAt: Date, sessionExpiresAt: Date)
    /// The token named a session but was not its live refresh token (it was used before): the session has ended.
    case reused
    /// No session goes with the token, or it has expired, or its employee is deactivated.
    case unknown
}
