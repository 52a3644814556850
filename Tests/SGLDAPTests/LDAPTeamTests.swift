import Foundation
import Hummingbird
import HummingbirdTesting
import SGAPI
import SGCore
import SGLDAP
import SGStore
import Testing

/// SG_LDAP_TEAM_ATTRIBUTE: the directory puts each employee in their team at every login (slapd, no mock).
@Suite("Teams from the LDAP directory")
struct LDAPTeamTests {
    static let operatorOfHost = Actor(employeeID: nil, name: "tests (sgadmin)", isAdmin: true)

    func team(of username: String, _ services: Services) async throws -> String? {
        try await services.core.teams.teams(by: Self.operatorOfHost).first { $0.members.contains { $0.username == username } }?.name
    }

    @Test("a login puts the employee in the team the attribute names, and takes them out of any other")
    func loginAssignsTheTeam() async throws {
        try await withDirectoryServer { server in
            var configuration = server.configuration()
            configuration.attributes.team = "departmentNumber"
            let services = Services(database: try AppDatabase.inMemory(), directory: LDAPDirectory(configuration: configuration, logger: .quiet))
            let app = buildApplication(configuration: .init(host: "127.0.0.1", port: 0), services: services)
            try await app.test(.router) { client in
                func login(_ username: String, _ password: String) async throws {
                    let body = try JSONEncoder().encode(["username": username, "password": password])
                    let response = try await client.execute(
                        uri: "/v1/auth/login", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: body))
                    #expect(response.status == .ok)
                }
                try await login("alice", "alice-secret-1")
                // The team did not exist: the login made it.
                #expect(try await team(of: "alice", services) == "Engineering")
                // An admin moves her; the directory has the last word at her next login.
                let teams = services.core.teams
                let sales = try await teams.create(name: "Sales", by: Self.operatorOfHost)
                let alice = try #require(try await services.core.accounts.employee(username: "alice"))
                _ = try await teams.addMember(teamID: sales.id, employeeID: alice.id, by: Self.operatorOfHost)
                #expect(try await team(of: "alice", services) == "Sales")
                try await login("alice", "alice-secret-1")
                #expect(try await team(of: "alice", services) == "Engineering")
                // Bob's entry names no team: he belongs to none, even after an admin put him in one.
                try await login("bob", "bob-secret-2")
                let bob = try #require(try await services.core.accounts.employee(username: "bob"))
                _ = try await teams.addMember(teamID: sales.id, employeeID: bob.id, by: Self.operatorOfHost)
                try await login("bob", "bob-secret-2")
                #expect(try await team(of: "bob", services) == nil)
                #expect(try await teams.teams(by: Self.operatorOfHost).map(\.name) == ["Engineering", "Sales"])
            }
        }
    }

    @Test("without the setting, teams stay as the admins set them")
    func withoutTheSettingTeamsAreKept() async throws {
        try await withDirectoryServer { server in
            let services = Services(database: try AppDatabase.inMemory(), directory: LDAPDirectory(configuration: server.configuration(), logger: .quiet))
            let directory = LDAPDirectory(configuration: server.configuration(), logger: .quiet)
            let first = try await directory.authenticate(username: "alice", password: "alice-secret-1")
            #expect(first.team == nil)
            let alice = try await services.core.accounts.provision(first)
            let sales = try await services.core.teams.create(name: "Sales", by: Self.operatorOfHost)
            _ = try await services.core.teams.addMember(teamID: sales.id, employeeID: alice.id, by: Self.operatorOfHost)
            _ = try await services.core.accounts.provision(try await directory.authenticate(username: "alice", password: "alice-secret-1"))
            #expect(try await team(of: "alice", services) == "Sales")
        }
    }
}
