import Foundation
import Logging
import GRDB
import SGCore
import SGLDAP
import SGStore
import Testing

/// The admin role comes from group membership, read again at every login.
@Suite("LDAP admin role from groups")
struct LDAPAdminTests {
    static let rules: [(String, LDAPConfiguration.AdminRule, String)] = [
        ("groupOfNames member", .groupEntry(groupDN: TestDirectoryServer.adminGroup, memberAttribute: .member),
         "dn: cn=holiday-admins,ou=groups,dc=example,dc=com\nchangetype: modify\ndelete: member\nmember: uid=carol,ou=people,dc=example,dc=com\n"),
        ("groupOfUniqueNames uniqueMember",
         .groupEntry(groupDN: "cn=holiday-admins-unique,ou=groups,dc=example,dc=com", memberAttribute: .uniqueMember),
         "dn: cn=holiday-admins-unique,ou=groups,dc=example,dc=com\nchangetype: modify\ndelete: uniqueMember\nuniqueMember: uid=carol,ou=people,dc=example,dc=com\n"),
        ("posixGroup memberUid",
         .groupEntry(groupDN: "cn=holiday-admins-posix,ou=groups,dc=example,dc=com", memberAttribute: .memberUid),
         "dn: cn=holiday-admins-posix,ou=groups,dc=example,dc=com\nchangetype: modify\ndelete: memberUid\nmemberUid: carol\n"),
        // The DN written differently from the directory's: compared without case or spacing.
        ("memberOf on the user", .memberOf(attribute: "memberOf", groupDN: "CN=Holiday-Admins, OU=Groups, DC=example, DC=com"),
         "dn: cn=holiday-admins,ou=groups,dc=example,dc=com\nchangetype: modify\ndelete: member\nmember: uid=carol,ou=people,dc=example,dc=com\n"),
    ]

    @Test("admin through the group, and no longer once out of it", arguments: 0..<4)
    func adminThenNot(ruleIndex: Int) async throws {
        let (name, rule, removal) = Self.rules[ruleIndex]
        try await withDirectoryServer { server in
            var configuration = server.configuration()
            configuration.admin = rule
            let directory = LDAPDirectory(configuration: configuration, logger: .quiet)
            let database = try AppDatabase.inMemory()
            let sessions = database.sessions(directory: directory)

            let before = try await sessions.login(username: "carol", password: "carol-secret-3")
            #expect(before.employee.isAdmin, "\(name): carol is in the group")
            let bob = try await sessions.login(username: "bob", password: "bob-secret-2")
            #expect(!bob.employee.isAdmin, "\(name): bob is not")

            try await server.modify(removal)
            let after = try await sessions.login(username: "carol", password: "carol-secret-3")
            #expect(!after.employee.isAdmin, "\(name): carol left the group")
            #expect(try await database.services().accounts.employee(username: "carol")?.isAdmin == false)
            // Alice is still in.
            #expect(try await sessions.login(username: "alice", password: "alice-secret-1").employee.isAdmin)
        }
    }

    @Test("joining the group makes an admin at the next login")
    func gainsAdmin() async throws {
        try await withDirectoryServer { server in
            var configuration = server.configuration()
            configuration.admin = .groupEntry(groupDN: TestDirectoryServer.adminGroup, memberAttribute: .member)
            let sessions = (try AppDatabase.inMemory()).sessions(directory: LDAPDirectory(configuration: configuration, logger: .quiet))
            #expect(try await sessions.login(username: "bob", password: "bob-secret-2").employee.isAdmin == false)
            try await server.modify(
                "dn: \(TestDirectoryServer.adminGroup)\nchangetype: modify\nadd: member\nmember: uid=bob,ou=people,dc=example,dc=com\n")
            #expect(try await sessions.login(username: "bob", password: "bob-secret-2").employee.isAdmin)
        }
    }

    @Test("without an admin group the app keeps the role it gave")
    func noAdminRule() async throws {
        try await withDirectoryServer { server in
            let database = try AppDatabase.inMemory()
            let sessions = database.sessions(directory: LDAPDirectory(configuration: server.configuration(), logger: .quiet))
            let first = try await sessions.login(username: "bob", password: "bob-secret-2")
            #expect(!first.employee.isAdmin)
            try await database.write { (db: Database) in
                try db.execute(sql: "UPDATE employees SET is_admin = 1 WHERE username = 'bob'")
            }
            #expect(try await sessions.login(username: "bob", password: "bob-secret-2").employee.isAdmin)
        }
    }
}
