import Foundation
import Logging
import SGCore
import SGLDAP
import SGTestSupport
import SGStore
import Testing

/// Logins against a real slapd (scripts/ldap), no mock of LDAP.
@Suite("LDAP login against slapd")
struct LDAPLoginTests {
    static let wrong = SGError.unauthenticated("Wrong username or password.")

    @Test("right password: the account comes from the entry's attributes")
    func rightPassword() async throws {
        try await withDirectoryServer { server in
            let directory = LDAPDirectory(configuration: server.configuration(), logger: .quiet)
            let account = try await directory.authenticate(username: "alice", password: "alice-secret-1")
            #expect(account.username == "alice")
            #expect(account.name == "Alice")
            #expect(account.surname == "Smith")
            #expect(account.email == "alice@example.com")
            #expect(account.title == "Engineering Manager")
            #expect(account.phone == "+34 600 000 001")
            #expect(account.displayName == "Alice Smith")
            #expect(account.directoryName == "uid=alice,ou=people,dc=example,dc=com")
            #expect(account.isAdmin == false)
            #expect(account.decidesAdmin == false)
        }
    }

    @Test("the username is the directory's, whatever case was typed")
    func usernameCase() async throws {
        try await withDirectoryServer { server in
            let directory = LDAPDirectory(configuration: server.configuration(), logger: .quiet)
            let account = try await directory.authenticate(username: "ALICE", password: "alice-secret-1")
            #expect(account.username == "alice")
        }
    }

    @Test("wrong password and unknown user get the same 401")
    func wrongPasswordAndUnknownUser() async throws {
        try await withDirectoryServer { server in
            let directory = LDAPDirectory(configuration: server.configuration(), logger: .quiet)
            await #expect(throws: Self.wrong) {
                try await directory.authenticate(username: "alice", password: "not-her-password")
            }
            await #expect(throws: Self.wrong) {
                try await directory.authenticate(username: "nobody", password: "alice-secret-1")
            }
            // Another user's password is just as wrong.
            await #expect(throws: Self.wrong) {
                try await directory.authenticate(username: "alice", password: "bob-secret-2")
            }
        }
    }

    @Test("an empty or blank password is refused without asking the directory", arguments: [
        Printable(""), Printable(" "), Printable("\t\n"), Printable("   "),
    ])
    func emptyPassword(blank: Printable) async throws {
        let password = blank.text
        // Nothing listens on this port: reaching the directory would be a 503, not a 401.
        let directory = LDAPDirectory(configuration: LDAPConfiguration(
            url: "ldap://127.0.0.1:\(freePort())", baseDN: TestDirectoryServer.baseDN, connectTimeout: 1, timeout: 1), logger: .quiet)
        await #expect(throws: Self.wrong) {
            try await directory.authenticate(username: "alice", password: password)
        }
        // And against a real directory, where an empty password would be an anonymous bind that "succeeds".
        try await withDirectoryServer { server in
            var configuration = server.configuration()
            configuration.mode = .directBind(dnTemplate: "uid={username},ou=people,dc=example,dc=com")
            let direct = LDAPDirectory(configuration: configuration, logger: .quiet)
            await #expect(throws: Self.wrong) {
                try await direct.authenticate(username: "alice", password: password)
            }
        }
    }

    @Test(
        "usernames built to inject into the filter match nothing",
        arguments: [
            (Printable("*)(uid=*))(|(uid=*"), "alice-secret-1"),
            (Printable("admin*"), "administrator-secret-5"),
            (Printable("*"), "alice-secret-1"),
            (Printable("alice)(|(uid=*"), "alice-secret-1"),
            (Printable("al*"), "alice-secret-1"),
            (Printable("alice\\"), "alice-secret-1"),
            (Printable("alice\u{0}"), "alice-secret-1"),
            (Printable("*)(objectClass=*"), "service-secret"),
        ])
    func injection(attempt: Printable, password: String) async throws {
        let username = attempt.text
        try await withDirectoryServer { server in
            let directory = LDAPDirectory(configuration: server.configuration(), logger: .quiet)
            await #expect(throws: Self.wrong) {
                try await directory.authenticate(username: username, password: password)
            }
        }
    }

    @Test("a DN-template username cannot step out of its RDN")
    func directBindInjection() async throws {
        try await withDirectoryServer { server in
            var configuration = server.configuration()
            configuration.mode = .directBind(dnTemplate: "uid={username},ou=people,dc=example,dc=com")
            let directory = LDAPDirectory(configuration: configuration, logger: .quiet)
            let account = try await directory.authenticate(username: "bob", password: "bob-secret-2")
            #expect(account.username == "bob")
            // "alice,ou=people" would bind as alice without escaping; escaped, it names no entry.
            await #expect(throws: Self.wrong) {
                try await directory.authenticate(username: "alice,ou=people,dc=example,dc=com,uid=x", password: "alice-secret-1")
            }
        }
    }

    @Test("names, passwords and usernames with ñ and accents")
    func accents() async throws {
        try await withDirectoryServer { server in
            let directory = LDAPDirectory(configuration: server.configuration(), logger: .quiet)
            let begona = try await directory.authenticate(username: "begona", password: "contraseña-ñ-1")
            #expect(begona.name == "Begoña")
            #expect(begona.surname == "Núñez Ibáñez")
            #expect(begona.displayName == "Begoña Núñez Ibáñez")
            #expect(begona.title == "Técnica de nóminas")

            let jose = try await directory.authenticate(username: "josé.muñoz", password: "jose-secret-4")
            #expect(jose.username == "josé.muñoz")
            #expect(jose.name == "José")
            #expect(jose.surname == "Muñoz")
            #expect(jose.directoryName == "uid=josé.muñoz,ou=people,dc=example,dc=com")

            await #expect(throws: Self.wrong) {
                try await directory.authenticate(username: "begona", password: "contrasena-n-1")
            }
        }
    }

    @Test("a username found in two OUs is refused, whichever password is given")
    func ambiguous() async throws {
        try await withDirectoryServer { server in
            let directory = LDAPDirectory(configuration: server.configuration(), logger: .quiet)
            for password in ["sam-secret-6", "sam-secret-7"] {
                await #expect(throws: Self.wrong) {
                    try await directory.authenticate(username: "sam", password: password)
                }
            }
            // Narrowed to one OU, the same user is fine.
            var narrowed = server.configuration()
            narrowed.baseDN = "ou=people,dc=example,dc=com"
            let account = try await LDAPDirectory(configuration: narrowed, logger: .quiet).authenticate(username: "sam", password: "sam-secret-6")
            #expect(account.surname == "Green")
        }
    }

    @Test("a wrong service account password is an outage (503), not the user's fault")
    func wrongServicePassword() async throws {
        try await withDirectoryServer { server in
            var configuration = server.configuration()
            configuration.bindPassword = "not-the-service-password"
            let directory = LDAPDirectory(configuration: configuration, logger: .quiet)
            await #expect {
                try await directory.authenticate(username: "alice", password: "alice-secret-1")
            } throws: { error in
                if case SGError.unavailable = error { return true }
                return false
            }
        }
    }

    @Test("a user filter for another attribute (the Active Directory shape)")
    func customFilterAndAttributes() async throws {
        try await withDirectoryServer { server in
            var configuration = server.configuration()
            configuration.mode = .searchThenBind(filter: "(&(objectClass=inetOrgPerson)(mail={username}))")
            configuration.attributes.username = "mail"
            let directory = LDAPDirectory(configuration: configuration, logger: .quiet)
            let account = try await directory.authenticate(username: "bob@example.com", password: "bob-secret-2")
            #expect(account.username == "bob@example.com")
            #expect(account.name == "Bob")
        }
    }
}

/// A test argument shown escaped in the test log (a NUL or a newline would garble it).
struct Printable: Sendable, CustomTestStringConvertible {
    let text: String
    init(_ text: String) { self.text = text }
    var testDescription: String { text.debugDescription }
}
