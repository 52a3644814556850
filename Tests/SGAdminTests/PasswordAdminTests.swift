import Foundation
import Testing
import SGCore
import SGStore
import SGTestSupport

/// `sgadmin user password` as an operator runs it: the built binary, the password on standard input.
@Suite(.serialized) struct PasswordAdminTests {
    @Test func setsALocalPasswordFromStandardInputAndEndsTheSessions() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path)
        let cli = AdminCLI(databasePath: path.path)
        let sessions = f.sessions()
        let before = try await sessions.login(username: "alice", password: Fixture.password)

        let set = try cli.run(["user", "password", "alice", "--password-stdin"], stdin: "a new long password\n")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "Set the password of alice; their sessions are ended.\n")
        #expect(try await sessions.authenticate(token: before.token) == nil)
        #expect(try await sessions.login(username: "alice", password: "a new long password").employee.id == f.alice.id)
        await #expect(throws: SGError.self) { _ = try await sessions.login(username: "alice", password: Fixture.password) }
        // A Windows line end is not part of the password.
        #expect(try cli.run(["user", "password", "bob", "--password-stdin"], stdin: "crlf-ended-password\r\n").status == 0)
        #expect(try await sessions.login(username: "bob", password: "crlf-ended-password").employee.id == f.bob.id)
    }

    @Test func refusesBadInputWithAMessageAndExitStatus1() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path)
        let cli = AdminCLI(databasePath: path.path)
        _ = try await f.services.accounts.addEmployee(NewEmployee(
            username: "alexandria", name: "Alexandria", surname: "Long", email: "alexandria@example.com", isAdmin: false,
            passwordHash: try await Passwords.hash(Fixture.password, cost: 4)))
        let cases: [([String], String?, String)] = [
            (["user", "password", "alice"], "a new long password\n", "--password-stdin"),
            (["user", "password", "alice", "--password-stdin"], "too-short\n", "password: at least 10 characters"),
            (["user", "password", "alexandria", "--password-stdin"], "ALEXANDRIA\n", "password: must not be the username"),
            (["user", "password", "alice", "--password-stdin"], String(repeating: "x", count: 257) + "\n", "password: at most 256 bytes in UTF-8"),
            (["user", "password", "alice", "--password-stdin"], "", "nothing on standard input"),
            (["user", "password", "ghost", "--password-stdin"], "a new long password\n", "No employee with username 'ghost'"),
            (["user", "add", "maximilian", "--name", "M", "--surname", "S", "--email", "m@example.com", "--password-stdin"],
             "Maximilian\n", "password: must not be the username"),
        ]
        for (arguments, stdin, message) in cases {
            let result = try cli.run(arguments, stdin: stdin)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.hasPrefix("sgadmin: ") && result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // Nothing changed.
        #expect(try await f.sessions().login(username: "alice", password: Fixture.password).employee.id == f.alice.id)
        #expect(try await f.services.accounts.employee(username: "maximilian") == nil)
    }

    @Test func refusesAccountsTheDirectoryManagesNamingItsPage() async throws {
        let path = TemporaryDatabasePath()
        defer { path.cleanUp() }
        let f = try await Fixture.make(path: path.path)
        let cli = AdminCLI(databasePath: path.path)
        _ = try await f.services.accounts.provision(DirectoryAccount(
            username: "dora", name: "Dora", surname: "Directory", email: "dora@example.com", isAdmin: false,
            directoryName: "uid=dora,ou=people,dc=example,dc=com"))
        let refused = try cli.run(
            ["user", "password", "dora", "--password-stdin"], stdin: "a new long password\n",
            environment: ["SG_LDAP_PASSWORD_URL": "https://id.example.com/password"])
        #expect(refused.status == 1)
        #expect(refused.stderr == "sgadmin: Passwords are kept by the company directory, not by this app: change yours at https://id.example.com/password.\n")
        let withoutPage = try cli.run(["user", "password", "dora", "--password-stdin"], stdin: "a new long password\n")
        #expect(withoutPage.status == 1 && withoutPage.stderr.contains("company directory"))
    }
}
