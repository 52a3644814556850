import Foundation
import Logging
import SGCore
import SGLDAP
import Testing

/// StartTLS and ldaps:// against slapd with a certificate from a throwaway CA.
@Suite("LDAP over TLS")
struct LDAPTLSTests {
    static func isUnavailable(_ error: any Error) -> Bool {
        if case SGError.unavailable = error { return true }
        return false
    }

    @Test("StartTLS and ldaps:// with the CA file; refused without it, as checks are on by default")
    func tls() async throws {
        try await withDirectoryServer(tls: true) { server in
            var startTLS = server.configuration()
            startTLS.tls = .init(startTLS: true, caFile: server.caFile)
            try #expect(await LDAPDirectory(configuration: startTLS, logger: .quiet).authenticate(username: "bob", password: "bob-secret-2").username == "bob")

            var ldaps = server.configuration()
            ldaps.url = server.ldapsURL
            ldaps.tls = .init(caFile: server.caFile)
            try #expect(await LDAPDirectory(configuration: ldaps, logger: .quiet).authenticate(username: "bob", password: "bob-secret-2").username == "bob")

            // The test CA is not among the system's: the certificate cannot be checked, so no login.
            var unknownCA = server.configuration()
            unknownCA.tls = .init(startTLS: true)
            await #expect(performing: {
                try await LDAPDirectory(configuration: unknownCA, logger: .quiet).authenticate(username: "bob", password: "bob-secret-2")
            }, throws: Self.isUnavailable)
            var unknownCAldaps = server.configuration()
            unknownCAldaps.url = server.ldapsURL
            await #expect(performing: {
                try await LDAPDirectory(configuration: unknownCAldaps, logger: .quiet).authenticate(username: "bob", password: "bob-secret-2")
            }, throws: Self.isUnavailable)

            // Checks off (a test directory only): accepted.
            var unchecked = server.configuration()
            unchecked.tls = .init(startTLS: true, verifyCertificates: false)
            try #expect(await LDAPDirectory(configuration: unchecked, logger: .quiet).authenticate(username: "bob", password: "bob-secret-2").username == "bob")
        }
    }

    @Test("StartTLS against a directory without TLS fails closed (503), never falls back to plain text")
    func startTLSUnsupported() async throws {
        try await withDirectoryServer { server in
            var configuration = server.configuration()
            configuration.tls = .init(startTLS: true)
            await #expect(performing: {
                try await LDAPDirectory(configuration: configuration, logger: .quiet).authenticate(username: "bob", password: "bob-secret-2")
            }, throws: Self.isUnavailable)
        }
    }
}
