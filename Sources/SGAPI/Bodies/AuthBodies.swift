import Foundation
import Hummingbird
import SGCore

extension DTO {
    struct EmployeeRef: JSONBody {
        let employee: Employee

        init(_ employee: Employee) { self.employee = employee }

        /// Whether the two are written as the same bytes.
        static func sameBody(_ a: Employee, _ b: Employee) -> Bool {
            a.id == b.id && a.name == b.name && a.surname == b.surname && a.username == b.username
        }

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("id"); json.value(employee.id)
                json.key("name"); json.value(employee.name)
                json.key("surname"); json.value(employee.surname)
                json.key("username"); json.value(employee.username)
            }
        }
    }

    struct EmployeeBody: Encodable {
        let id: Int64
        let username: String
        let name: String
        let surname: String
        let email: String
        let isAdmin: Bool
        let isActive: Bool

        init(_ employee: Employee) {
            id = employee.id
            username = employee.username
            name = employee.name
            surname = employee.surname
            email = employee.email
            isAdmin = employee.isAdmin
            isActive = employee.isActive
        }
    }

    /// What every password-reset request gets back.
    struct ResetRequested: Encodable {
        let message: String
    }

    /// What a login and a refresh answer: `token` is the access token. `refreshToken` is null when it went into
    /// the browser's cookie instead (`BrowserSession`).
    struct Token: Encodable {
        let token: String
        let tokenType = "Bearer"
        let expiresAt: String
        @Nullable var refreshToken: String?
        let refreshExpiresAt: String
        let sessionId: Int64
        let employee: EmployeeBody

        init(_ issued: IssuedToken, refreshInCookie: Bool = false) {
            token = issued.token
            expiresAt = Timestamp.format(issued.expiresAt)
            refreshToken = refreshInCookie ? nil : issued.refreshToken
            refreshExpiresAt = Timestamp.format(issued.refreshExpiresAt)
            sessionId = issued.sessionID
            employee = EmployeeBody(issued.employee)
        }
    }

    /// One of the caller's sessions; optional values present as null.
    struct SessionBody: Encodable {
        let id: Int64
        let createdAt: String
        let lastUsedAt: String
        let expiresAt: String
        @Nullable var userAgent: String?
        @Nullable var deviceName: String?
        let current: Bool

        init(_ session: SessionSummary, current: Int64?) {
            id = session.id
            createdAt = Timestamp.format(session.createdAt)
            lastUsedAt = Timestamp.format(session.lastUsedAt)
            expiresAt = Timestamp.format(session.expiresAt)
            userAgent = session.client.userAgent
            deviceName = session.client.deviceName
            self.current = session.id == current
        }
    }

    struct Sessions: Encodable {
        let items: [SessionBody]
    }
}
