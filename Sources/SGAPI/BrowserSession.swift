import Foundation
import Hummingbird
import SGCore

/// A browser's session, as OAuth 2.0 for Browser-Based Apps has it: the refresh token lives in a cookie that script
/// cannot read (HttpOnly), that goes only over https or to this machine (Secure), only with requests from this site
/// (SameSite=Strict) and only to the routes that take it (`/v1/auth`); the web app holds only the short access
/// token, in memory. The cookie is taken only by `POST /v1/auth/refresh` and the logout, from a page of this origin.
enum BrowserSession {
    static let cookieName = "sg_refresh"
    static let cookiePath = "/v1/auth"

    /// The Set-Cookie value that hands the browser `issued`'s refresh token, until the session ends.
    static func cookie(_ issued: IssuedToken, secure: Bool) -> String {
        let seconds = max(0, Int(issued.refreshExpiresAt.timeIntervalSince(Date()).rounded(.down)))
        return attributes("\(cookieName)=\(issued.refreshToken)", maxAge: seconds, secure: secure)
    }

    /// The Set-Cookie value that removes it.
    static func clearedCookie(secure: Bool) -> String { attributes("\(cookieName)=", maxAge: 0, secure: secure) }

    private static func attributes(_ pair: String, maxAge: Int, secure: Bool) -> String {
        "\(pair); Path=\(cookiePath); Max-Age=\(maxAge); HttpOnly;\(secure ? " Secure;" : "") SameSite=Strict"
    }

    /// The refresh token in the request's cookie, if any.
    static func refreshToken(in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.trimmingCharacters(in: .whitespaces)
                guard trimmed.hasPrefix(cookieName + "=") else { continue }
                let value = String(trimmed.dropFirst(cookieName.count + 1))
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }

    /// A change that a cookie authorizes must come from a page of this origin: the browser says where a request
    /// comes from (`Origin`, or `Sec-Fetch-Site`), and a page of another site cannot make it say otherwise. Besides
    /// SameSite=Strict, this refuses a request forged from a sibling subdomain or an old browser.
    static func checkSameOrigin(_ request: Request) throws {
        if let site = request.headers[HTTPFields.Element.Name("Sec-Fetch-Site")!] {
            guard site == "same-origin" else { throw refusal }
            return
        }
        guard let origin = request.headers[HTTPFields.Element.Name("Origin")!], let host = request.head.authority,
              let components = URLComponents(string: origin), let originHost = components.host
        else { throw refusal }
        let originAuthority = components.port.map { "\(originHost):\($0)" } ?? originHost
        let bracketed = originHost.contains(":") ? components.port.map { "[\(originHost)]:\($0)" } ?? "[\(originHost)]" : originAuthority
        guard host.lowercased() == originAuthority.lowercased() || host.lowercased() == bracketed.lowercased() else { throw refusal }
    }

    static let refusal = SGError.forbidden(
        "A browser session is used only by the web app of this server: the request must come from a page of this origin.")
}
