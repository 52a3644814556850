import Foundation
import SGAPI
import SGCore
import SGLDAP
import SGStore
import Testing

/// SG_LDAP_ATTR_EMPLOYMENT_START and _END: the directory sets the employment dates at every login (slapd, no mock),
/// under the rules an admin's change meets.
@Suite("Employment dates from the LDAP directory")
struct LDAPEmploymentTests {
    static let operatorOfHost = Actor(employeeID: nil, name: "tests (sgadmin)", isAdmin: true)
    static func day(_ iso: String) -> CalendarDate { CalendarDate(iso: iso)! }

    @Test("a login sets the dates the directory holds, admins change them there, and a request in the way keeps them")
    func loginSetsTheEmploymentDates() async throws {
        try await withDirectoryServer { server in
            var configuration = server.configuration()
            configuration.attributes.employmentStart = "hrStartDate"
            configuration.attributes.employmentEnd = "hrEndDate"
            let directory = LDAPDirectory(configuration: configuration, logger: .quiet)
            let services = Services(database: try AppDatabase.inMemory(), directory: directory)
            let accounts = services.core.accounts

            // A GeneralizedTime and no end in alice's entry; in bob's, a date and a value that is no date (kept).
            let alice = try await directory.authenticate(username: "alice", password: "alice-secret-1")
            #expect(alice.employment == EmploymentChange(start: .set(Self.day("2020-01-06")), end: .clear))
            let bob = try await directory.authenticate(username: "bob", password: "bob-secret-2")
            #expect(bob.employment == EmploymentChange(start: .set(Self.day("2021-03-01")), end: .keep))
            let employee = try await accounts.provision(alice, owned: directory.ownedFields)
            #expect(try await services.core.people.profile(employeeID: employee.id).employment == Employment(start: Self.day("2020-01-06")))

            // The dates are the directory's: an admin's change is refused, sending them as they are is not.
            var change = EmployeeChange()
            change.employment = EmploymentChange(end: .set(Self.day("2030-12-31")))
            await #expect(throws: SGError.invalid(
                field: "employmentEnd",
                message: "is held by the company directory (ldap) and cannot be changed here; it changes in the directory and shows at the next login")) {
                _ = try await accounts.update(employeeID: employee.id, change, by: Self.operatorOfHost, directory: directory)
            }
            change.employment = EmploymentChange(start: .set(Self.day("2020-01-06")), end: .clear)
            _ = try await accounts.update(employeeID: employee.id, change, by: Self.operatorOfHost, directory: directory)

            // A last day before a request she holds is not taken, and she still logs in; once it is cancelled, it is.
            let year = CalendarDate(Date(), in: .gmt).year + 1
            let own = Actor(employeeID: employee.id, name: "alice", isAdmin: false)
            let request = try await services.core.holidays.createRequest(
                for: employee.id, start: Self.day("\(year)-03-01"), end: Self.day("\(year)-03-07"), comment: "", actor: own)
            try await server.modify("""
                dn: uid=alice,ou=people,dc=example,dc=com
                changetype: modify
                add: hrEndDate
                hrEndDate: \(year)-02-28

                """)
            let leaving = try await directory.authenticate(username: "alice", password: "alice-secret-1")
            let kept = try await accounts.provisioned(leaving, owned: directory.ownedFields)
            #expect(kept.employmentKept?.contains("request \(request.id)") == true, "\(kept.employmentKept ?? "nil")")
            #expect(try await services.core.people.profile(employeeID: employee.id).employment == Employment(start: Self.day("2020-01-06")))
            _ = try await services.core.holidays.perform(.cancel, on: request.id, by: own)
            let taken = try await accounts.provisioned(leaving, owned: directory.ownedFields)
            #expect(taken.employmentKept == nil)
            #expect(try await services.core.people.profile(employeeID: employee.id).employment
                == Employment(start: Self.day("2020-01-06"), end: Self.day("\(year)-02-28")))
        }
    }

    @Test("without the settings, the dates are the app's")
    func withoutTheSettingsTheDatesAreKept() async throws {
        try await withDirectoryServer { server in
            let directory = LDAPDirectory(configuration: server.configuration(), logger: .quiet)
            #expect(!directory.holdsEmploymentStart && !directory.holdsEmploymentEnd)
            let alice = try await directory.authenticate(username: "alice", password: "alice-secret-1")
            #expect(alice.employment == EmploymentChange())
        }
    }
}
