import Foundation
import Hummingbird
import Logging
import HummingbirdTesting
import SGAPI
import SGCore
import SGLDAP
import SGStore
import Testing

/// With LDAP the directory keeps the passwords: the app's password routes refuse, pointing to the company's page.
/// They refuse before asking the directory, so no slapd is needed here.
@Suite("Password routes with LDAP")
struct LDAPPasswordTests {
    @Test("reset and confirm answer 409 password-held-by-directory with SG_LDAP_PASSWORD_URL, or without it")
    func pointsToTheCompanyPage() async throws {
        for page in ["https://id.example.com/password", nil] {
            let configuration = LDAPConfiguration(url: "ldap://127.0.0.1:1", baseDN: "dc=example,dc=com", passwordURL: page)
            let directory = LDAPDirectory(configuration: configuration, logger: .quiet)
            let services = Services(database: try AppDatabase.inMemory(), directory: directory)
            #expect(services.passwords.directoryHoldsPasswords)
            let app = buildApplication(configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: services)
            try await app.test(.router) { client in
                for (uri, body) in [
                    ("/v1/auth/password-reset", #"{"login":"alice"}"#),
                    ("/v1/auth/password-reset/confirm", #"{"token":"sgr_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG","newPassword":"a-brand-new-secret"}"#),
                ] {
                    let response = try await client.execute(
                        uri: uri, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
                    let json = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any] ?? [:]
                    #expect(response.status == .conflict)
                    #expect(response.headers[.contentType] == "application/problem+json")
                    #expect(json["type"] as? String == "urn:sgemployee:problem:password-held-by-directory")
                    #expect(json["passwordUrl"] as? String == page)
                    #expect((json["detail"] as? String)?.contains(page ?? "ask IT") == true)
                }
            }
        }
    }
}
