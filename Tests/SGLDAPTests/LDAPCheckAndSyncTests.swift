import Foundation
import Logging
import GRDB
import SGCore
import SGLDAP
import SGTestSupport
import SGStore
import Testing

@Suite("sgadmin ldap check and sync, against slapd")
struct LDAPCheckAndSyncTests {
    @Test("check explains each step for a user who can log in")
    func checkGood() async throws {
        try await withDirectoryServer { server in
            var configuration = server.configuration()
            configuration.admin = .groupEntry(groupDN: TestDirectoryServer.adminGroup, memberAttribute: .member)
            let report = await LDAPDirectory(configuration: configuration, logger: .quiet).check(username: "alice", accounts: try AppDatabase.inMemory().services().accounts)
            #expect(report.succeeded, "\(report.text())")
            #expect(report.steps.map(\.name) == ["settings", "connect", "service bind", "search", "entry", "groups", "role", "password", "employee"])
            #expect(report.step("search")?.detail.contains("(uid=alice)") == true)
            #expect(report.step("entry")?.detail.contains("uid=alice,ou=people,dc=example,dc=com") == true)
            #expect(report.step("role")?.detail == "admin")
            #expect(report.step("employee")?.detail.contains("first login creates it") == true)
            #expect(report.account?.email == "alice@example.com")
            #expect(report.text().contains("alice can log in"))
        }
    }

    @Test("check shows where it goes wrong: unknown, ambiguous, wrong service password, directory down")
    func checkBad() async throws {
        try await withDirectoryServer { server in
            let directory = LDAPDirectory(configuration: server.configuration(), logger: .quiet)
            let unknown = await directory.check(username: "nobody")
            #expect(!unknown.succeeded)
            #expect(unknown.step("search")?.outcome == .failed)
            #expect(unknown.step("search")?.detail.contains("no entry") == true)

            let ambiguous = await directory.check(username: "sam")
            #expect(ambiguous.step("search")?.outcome == .failed)
            #expect(ambiguous.step("search")?.detail.contains("uid=sam,ou=contractors,dc=example,dc=com") == true)

            let injected = await directory.check(username: "*")
            #expect(injected.step("search")?.detail.contains("(uid=\\2a)") == true)
            #expect(!injected.succeeded)

            var wrongService = server.configuration()
            wrongService.bindPassword = "nope"
            let refused = await LDAPDirectory(configuration: wrongService, logger: .quiet).check(username: "alice")
            #expect(refused.step("service bind")?.outcome == .failed)
            #expect(refused.step("search") == nil)

            await server.stop()
            let down = await directory.check(username: "alice")
            #expect(down.step("connect")?.outcome == .failed)
        }
    }

    @Test("check of a deactivated employee says a login is refused")
    func checkDeactivated() async throws {
        try await withDirectoryServer { server in
            let directory = LDAPDirectory(configuration: server.configuration(), logger: .quiet)
            let database = try AppDatabase.inMemory()
            _ = try await database.sessions(directory: directory).login(username: "bob", password: "bob-secret-2")
            _ = try await database.services().accounts.deactivate(username: "bob")
            let report = await directory.check(username: "bob", accounts: database.services().accounts)
            #expect(report.step("employee")?.outcome == .failed)
            #expect(!report.succeeded)
        }
    }

    /// The directory compares memberUid exactly (caseExactIA5Match): "BOB" in the group is not bob, at login and
    /// in sync alike. Sync compared it without case, so sync made bob an admin and his next login undid it.
    @Test("login and sync agree on a memberUid written in another case")
    func memberUidCase() async throws {
        try await withDirectoryServer { server in
            var configuration = server.configuration()
            configuration.admin = .groupEntry(groupDN: "cn=holiday-admins-posix,ou=groups,dc=example,dc=com", memberAttribute: .memberUid)
            try await server.modify("dn: cn=holiday-admins-posix,ou=groups,dc=example,dc=com\nchangetype: modify\nadd: memberUid\nmemberUid: BOB\n")
            let directory = LDAPDirectory(configuration: configuration, logger: .quiet)
            let database = try AppDatabase.inMemory()
            let sessions = database.sessions(directory: directory)
            #expect(try await sessions.login(username: "bob", password: "bob-secret-2").employee.isAdmin == false)
            #expect(try await sessions.login(username: "carol", password: "carol-secret-3").employee.isAdmin)
            _ = try await directory.sync(into: database.services().accounts, pageSize: 50) { _, _ in }
            #expect(try await database.services().accounts.employee(username: "bob")?.isAdmin == false)
            #expect(try await database.services().accounts.employee(username: "carol")?.isAdmin == true)
            #expect(await directory.check(username: "bob", accounts: database.services().accounts).step("role")?.detail == "employee (not admin)")
        }
    }

    @Test("sync provisions every user, skips the ambiguous one, and deactivates leavers only")
    func sync() async throws {
        try await withDirectoryServer { server in
            var configuration = server.configuration()
            configuration.admin = .groupEntry(groupDN: "cn=holiday-admins-posix,ou=groups,dc=example,dc=com", memberAttribute: .memberUid)
            let directory = LDAPDirectory(configuration: configuration, logger: .quiet)
            let database = try AppDatabase.inMemory()
            // A local account the directory does not know: sync must leave it alone.
            _ = try await database.services().accounts.addEmployee(NewEmployee(
                username: "localadmin", name: "Local", surname: "Admin", email: "local@example.com", isAdmin: true,
                passwordHash: try await Passwords.hash("local-password", cost: 4)))

            let calls = ProgressLog()
            // Pages of two, so paging is exercised.
            let first = try await directory.sync(into: database.services().accounts, pageSize: 2) { done, total in calls.append(done, total) }
            #expect(first.found == 8)  // the service entry has no uid: not matched by (uid=*)
            #expect(first.created == 6)
            #expect(first.updated == 0)
            #expect(first.deactivated == 0)
            #expect(first.admins == 2)
            #expect(first.skipped.count == 1)
            #expect(first.skipped.first?.hasPrefix("sam:") == true)
            #expect(calls.last == [6, 6])
            let usernames = try await database.services().accounts.employees().map(\.username).sorted()
            #expect(usernames == ["administrator", "alice", "begona", "bob", "carol", "josé.muñoz", "localadmin"])
            #expect(try await database.services().accounts.employee(username: "alice")?.isAdmin == true)
            #expect(try await database.services().accounts.directoryProfile(username: "begona")?.title == "Técnica de nóminas")

            // Bob leaves the company.
            try await server.modify("dn: uid=bob,ou=people,dc=example,dc=com\nchangetype: delete\n")
            let second = try await directory.sync(into: database.services().accounts)
            #expect(second.created == 0)
            #expect(second.updated == 5)
            #expect(second.deactivated == 1)
            #expect(try await database.services().accounts.employee(username: "bob")?.isActive == false)
            #expect(try await database.services().accounts.employee(username: "localadmin")?.isActive == true)

            // Bob's entry is gone: he is not reactivated. Carol, deactivated by an admin, is, while the directory lists her.
            let accounts = database.services().accounts
            let operatorActor = Actor(employeeID: nil, name: "ops (sgadmin)", isAdmin: true)
            let bob = try #require(try await accounts.employee(username: "bob"))
            await #expect(performing: {
                _ = try await accounts.update(employeeID: bob.id, EmployeeChange(isActive: true), by: operatorActor, directory: directory)
            }, throws: { error in
                guard case .conflict(let message)? = error as? SGError else { return false }
                return message.contains("no longer lists bob")
            })
            #expect(try await accounts.employee(username: "bob")?.isActive == false)
            let carol = try #require(try await accounts.employee(username: "carol"))
            _ = try await accounts.update(employeeID: carol.id, EmployeeChange(isActive: false), by: operatorActor, directory: directory)
            let back = try await accounts.update(employeeID: carol.id, EmployeeChange(isActive: true), by: operatorActor, directory: directory)
            #expect(back.employee.isActive)
        }
    }

    @Test("sync refuses to deactivate everyone when the directory lists nobody")
    func syncEmpty() async throws {
        try await withDirectoryServer { server in
            let database = try AppDatabase.inMemory()
            let directory = LDAPDirectory(configuration: server.configuration(), logger: .quiet)
            _ = try await directory.sync(into: database.services().accounts)
            var wrongBase = server.configuration()
            wrongBase.syncFilter = "(uid=nobody-at-all)"
            await #expect(throws: SGError.self) {
                try await LDAPDirectory(configuration: wrongBase, logger: .quiet).sync(into: database.services().accounts)
            }
            #expect(try await database.services().accounts.employees(includeInactive: false).count == 6)
            let allowed = try await LDAPDirectory(configuration: wrongBase, logger: .quiet).sync(into: database.services().accounts, allowEmpty: true)
            #expect(allowed.deactivated == 6)
        }
    }

    @Test("sync with the directory down is a 503-style error and changes nothing")
    func syncDown() async throws {
        let directory = LDAPDirectory(configuration: LDAPConfiguration(
            url: "ldap://127.0.0.1:\(freePort())", baseDN: TestDirectoryServer.baseDN, connectTimeout: 1, timeout: 1), logger: .quiet)
        await #expect {
            try await directory.sync(into: try AppDatabase.inMemory().services().accounts)
        } throws: { error in
            if case SGError.unavailable = error { return true }
            return false
        }
    }
}

final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var calls: [[Int]] = []

    func append(_ done: Int, _ total: Int) { lock.withLock { calls.append([done, total]) } }
    var last: [Int]? { lock.withLock { calls.last } }
}
