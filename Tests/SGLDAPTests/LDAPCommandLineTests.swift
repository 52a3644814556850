import Foundation
import SGLDAP
import SGTestSupport
import Testing

/// The built `sgadmin` and `sgserver` binaries with SG_LDAP_* settings, as an operator runs them.
@Suite("sgadmin ldap and sgserver --directory ldap, as built")
struct LDAPCommandLineTests {
    static func run(_ name: String, _ arguments: [String], environment extra: [String: String]) async throws -> ProcessResult {
        try await offload { try runProduct(name, arguments, environment: extra) }
    }

    static func settings(_ server: TestDirectoryServer, database: String) -> [String: String] {
        [
            "SG_DATABASE": database,
            "SG_LDAP_URL": server.url,
            "SG_LDAP_BASE_DN": TestDirectoryServer.baseDN,
            "SG_LDAP_BIND_DN": TestDirectoryServer.serviceDN,
            "SG_LDAP_BIND_PASSWORD": TestDirectoryServer.servicePassword,
            "SG_LDAP_ADMIN_GROUP": TestDirectoryServer.adminGroup,
            "SG_LDAP_MEMBER_OF_ATTRIBUTE": "memberOf",
        ]
    }

    @Test("sgadmin ldap check, sync, and check again")
    func sgadmin() async throws {
        try await withDirectoryServer { server in
            let folder = server.workdir.appendingPathComponent("app")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let database = folder.appendingPathComponent("sgemployee.sqlite").path
            let settings = Self.settings(server, database: database)

            let check = try await Self.run("sgadmin", ["ldap", "check", "alice"], environment: settings)
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            for line in ["ok   connect", "ok   service bind", "ok   search", "(uid=alice)", "uid=alice,ou=people,dc=example,dc=com",
                         "role          admin", "alice can log in"] {
                #expect(check.stdout.contains(line), "missing \(line) in:\n\(check.stdout)")
            }
            let ambiguous = try await Self.run("sgadmin", ["ldap", "check", "sam"], environment: settings)
            #expect(ambiguous.status == 1)
            #expect(ambiguous.stdout.contains("FAIL search"))

            #expect(try await Self.run("sgadmin", ["migrate"], environment: settings).status == 0)
            let sync = try await Self.run("sgadmin", ["ldap", "sync"], environment: settings)
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stdout.contains("Created 6, refreshed 0, deactivated 0; 2 admins."), "\(sync.stdout)")
            #expect(sync.stdout.contains("Skipped sam"))
            // Not a terminal: no progress bar.
            #expect(!sync.stderr.contains("["))

            let list = try await Self.run("sgadmin", ["user", "list", "--format", "csv"], environment: settings)
            #expect(list.stdout.contains("begona,Begoña,Núñez Ibáñez,begona@example.com,no,yes"), "\(list.stdout)")

            let after = try await Self.run("sgadmin", ["ldap", "check", "bob"], environment: settings)
            #expect(after.stdout.contains("ok   employee"), "\(after.stdout)")

            let badSettings = try await Self.run(
                "sgadmin", ["ldap", "check", "alice", "--ldap-timeout", "none"],
                environment: settings.merging(["SG_LDAP_URL": "http://nowhere"]) { $1 })
            #expect(badSettings.status == 1)
            #expect(badSettings.stderr.contains("SG_LDAP_URL / --ldap-url 'http://nowhere'"))
            #expect(badSettings.stderr.contains("SG_LDAP_TIMEOUT / --ldap-timeout 'none'"))
        }
    }

    @Test("sgserver names every missing or invalid LDAP setting at once, and exits 2")
    func sgserverSettings() async throws {
        let result = try await Self.run(
            "sgserver", ["--directory", "ldap", "--ldap-connect-timeout", "99"],
            environment: [
                "SG_LDAP_BIND_DN": "cn=svc,dc=example,dc=com",
                "SG_LDAP_GROUP_MEMBER_ATTRIBUTE": "owner",
                "SG_LDAP_CA_FILE": "/nonexistent.pem",
                "SG_LOGIN_MAX_FAILURES": "0",
            ])
        #expect(result.status == 2)
        for expected in [
            "SG_LDAP_URL / --ldap-url is missing",
            "SG_LDAP_BASE_DN / --ldap-base-dn is missing",
            "SG_LDAP_BIND_DN / --ldap-bind-dn is set but SG_LDAP_BIND_PASSWORD",
            "SG_LDAP_GROUP_MEMBER_ATTRIBUTE / --ldap-group-member-attribute 'owner'",
            "SG_LDAP_ADMIN_GROUP / --ldap-admin-group is missing",
            "SG_LDAP_CA_FILE / --ldap-ca-file '/nonexistent.pem' cannot be read",
            "SG_LDAP_CONNECT_TIMEOUT / --ldap-connect-timeout '99'",
            "SG_LOGIN_MAX_FAILURES / --login-max-failures '0'",
        ] {
            #expect(result.stderr.contains(expected), "missing \(expected) in:\n\(result.stderr)")
        }
        #expect(result.stderr.components(separatedBy: "\n  - ").count - 1 == 8)
    }
}
