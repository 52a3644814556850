import Foundation
import Testing
import SGCore
import SGTestSupport
@testable import SGStore

/// Issue 18, finding 8 (suspected, confirmed): a directory login took over the local account of the same username,
/// admin role included, whoever the directory's entry belonged to.
@Suite struct ProvisioningTests {
    @Test func aDirectoryEntryDoesNotTakeOverAnotherPersonsLocalAccount() async throws {
        let f = try await Fixture.make()
        let stranger = DirectoryAccount(
            username: "admin", name: "Eve", surname: "Elsewhere", email: "eve@elsewhere.example", isAdmin: false,
            decidesAdmin: false, directoryName: "uid=admin,ou=people,dc=example,dc=com")
        await #expect(throws: SGError.self) { _ = try await f.services.accounts.provision(stranger) }
        let admin = try #require(try await f.services.accounts.employee(username: "admin"))
        #expect(admin.isAdmin && admin.name == "Ada" && admin.email == "admin@example.com")
        #expect(try await f.services.accounts.directoryProfile(username: "admin") == nil)
    }

    @Test func theSamePersonInTheDirectoryKeepsTheirAccount() async throws {
        let f = try await Fixture.make()
        // Switching to the directory: the entry has the account's e-mail address (in any case).
        let same = DirectoryAccount(
            username: "admin", name: "Ada", surname: "Admin", email: "Admin@Example.com", isAdmin: false,
            decidesAdmin: false, directoryName: "uid=admin,ou=people,dc=example,dc=com")
        let adopted = try await f.services.accounts.provision(same)
        #expect(adopted.id == f.admin.id && adopted.isAdmin)
        #expect(try await f.services.accounts.directoryProfile(username: "admin") != nil)
        // Once the directory's, later logins refresh it whatever its e-mail becomes.
        var moved = same
        moved.email = "ada@new.example"
        #expect(try await f.services.accounts.provision(moved).email == "ada@new.example")
    }
}
