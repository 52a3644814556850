import Foundation
import Hummingbird
import SGCore

/// Logins and logouts.
struct AuthController {
    let services: Services

    struct LoginBody: Decodable {
        let username: String
        let password: String
    }

    func addPublicRoutes(to router: Router<AppRequestContext>) {
        /// Exchanges a username and password for a bearer token.
        router.post("/v1/auth/login") { request, context in
            let body = try await JSON.decode(LoginBody.self, from: request, context: context)
            let issued = try await services.sessions.login(
                username: body.username, password: body.password,
                clientAddress: ClientAddress.of(request, peer: context.clientAddress, trustedProxies: services.trustedProxies))
            return try JSON.response(DTO.Token(issued))
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Revokes the token used for this call.
        group.post("/auth/logout") { _, context in
            if let token = context.token { try await services.sessions.logout(token: token) }
            return Response(status: .noContent)
        }
    }
}
