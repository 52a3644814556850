import Foundation
import Hummingbird
import SGCore

/// Logins, refreshes and logouts, the caller's sessions, and password resets.
struct AuthController {
    let services: Services

    /// Browsers keep a Secure cookie only over https, or from a loopback host (`make run`).
    var secureCookies: Bool { true }

    struct LoginBody: JSONObjectBody {
        static let fields = ["username", "password", "deviceName", "refreshCookie"]
        static let what = "a login field"

        let username: String
        let password: String
        /// How the client names the device, shown in the list of sessions.
        let deviceName: String?
        /// A browser's login: the refresh token goes into an HttpOnly cookie, never into the body.
        let refreshCookie: Bool?
    }

    struct RefreshBody: JSONObjectBody {
        static let fields = ["refreshToken"]

        let refreshToken: String
    }

    struct ResetRequestBody: JSONObjectBody {
        static let fields = ["login"]

        let login: String
    }

    struct ResetConfirmBody: JSONObjectBody {
        static let fields = ["token", "newPassword"]

        let token: String
        let newPassword: String
    }

    /// The one answer to every reset request, whoever it names.
    static let resetRequested = DTO.ResetRequested(
        message: "If this names an account whose password can be reset here, a link is on its way to the account's "
            + "e-mail address. It works once, within \(Int(PasswordService.resetLifetime / 60)) minutes.")

    func addPublicRoutes(to router: Router<AppRequestContext>) {
        /// Exchanges a username and password for a new session: an access token and a refresh token.
        router.post("/v1/auth/login") { request, context in
            let body = try await JSON.decode(LoginBody.self, from: request, context: context)
            let issued: IssuedToken
            do {
                issued = try await services.sessions.login(
                    username: body.username, password: body.password,
                    clientAddress: ClientAddress.of(request, peer: context.clientAddress, trustedProxies: services.trustedProxies),
                    client: SessionClient(userAgent: request.headers[.userAgent], deviceName: body.deviceName))
                services.metrics?.login(nil)
            } catch {
                services.metrics?.login(error)
                throw error
            }
            guard body.refreshCookie == true else { return try JSON.response(DTO.Token(issued)) }
            try BrowserSession.checkSameOrigin(request)
            return try JSON.response(
                DTO.Token(issued, refreshInCookie: true), headers: [.setCookie: BrowserSession.cookie(issued, secure: secureCookies)])
        }

        /// Trades a refresh token, once, for a new access token and a new refresh token: the body's, or with no body
        /// the browser's cookie (from this origin only), which is then replaced.
        router.post("/v1/auth/refresh") { request, context in
            if let body = try await JSON.decodeIfPresent(RefreshBody.self, from: request, context: context) {
                return try JSON.response(DTO.Token(try await services.sessions.refresh(token: body.refreshToken)))
            }
            guard let token = BrowserSession.refreshToken(in: request) else {
                // No token at all is no session: the same answer as a token that no longer works.
                throw SGError.unauthenticated(
                    "No refresh token: send {\"refreshToken\": …}, or call from the web app, whose session cookie carries it. Log in again.")
            }
            try BrowserSession.checkSameOrigin(request)
            let issued: IssuedToken
            do {
                issued = try await services.sessions.refresh(token: token)
            } catch let error as SGError {
                // A cookie that no longer works is cleared, so the app asks for a login once, not at every load.
                var response = ProblemMapping.from(error, logger: context.logger).response()
                response.headers[.setCookie] = BrowserSession.clearedCookie(secure: secureCookies)
                return response
            }
            return try JSON.response(
                DTO.Token(issued, refreshInCookie: true), headers: [.setCookie: BrowserSession.cookie(issued, secure: secureCookies)])
        }

        /// Asks for a reset link by e-mail. The same 202 whether or not the login names anyone.
        router.post("/v1/auth/password-reset") { request, context in
            let body = try await JSON.decode(ResetRequestBody.self, from: request, context: context)
            try await services.passwords.requestReset(
                login: body.login,
                clientAddress: ClientAddress.of(request, peer: context.clientAddress, trustedProxies: services.trustedProxies))
            return try JSON.response(Self.resetRequested, status: .accepted)
        }

        /// Sets a new password with the token from the link; every session of the account ends.
        router.post("/v1/auth/password-reset/confirm") { request, context in
            let body = try await JSON.decode(ResetConfirmBody.self, from: request, context: context)
            try await services.passwords.confirmReset(
                token: body.token, newPassword: body.newPassword,
                clientAddress: ClientAddress.of(request, peer: context.clientAddress, trustedProxies: services.trustedProxies))
            return Response(status: .noContent)
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Ends the session of the token used for this call, and clears a browser's session cookie.
        group.post("/auth/logout") { request, context in
            if let token = context.token { try await services.sessions.logout(token: token) }
            var headers = HTTPFields()
            if BrowserSession.refreshToken(in: request) != nil { headers[.setCookie] = BrowserSession.clearedCookie(secure: secureCookies) }
            return Response(status: .noContent, headers: headers)
        }

        /// The caller's sessions (logins on their devices), most recently used first.
        group.get("/me/sessions") { _, context in
            let employee = try context.requireEmployee()
            let sessions = try await services.sessions.sessions(employeeID: employee.id)
            return try JSON.response(DTO.Sessions(items: sessions.map { DTO.SessionBody($0, current: context.sessionID) }))
        }

        /// Logs the caller out everywhere else: every session but this one ends.
        group.delete("/me/sessions") { _, context in
            let employee = try context.requireEmployee()
            try await services.sessions.endOtherSessions(employeeID: employee.id, current: context.sessionID)
            return Response(status: .noContent)
        }

        /// Ends another of the caller's sessions.
        group.delete("/me/sessions/:id") { _, context in
            let employee = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Session")
            try await services.sessions.endSession(id: id, employeeID: employee.id, current: context.sessionID)
            return Response(status: .noContent)
        }
    }
}
