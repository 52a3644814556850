import Foundation
import GRDB
import Testing
import SGCore
import SGTestSupport
@testable import SGStore

/// A directory that provisions employees, as LDAP does, for the ownership rules.
struct ProvisioningDirectory: EmployeeDirectory {
    let kind = "ldap"
    let provisionsEmployees = true
    func authenticate(username: String, password: String) async throws -> DirectoryAccount {
        throw SGError.unauthenticated("Wrong username or password.")
    }
}

@Suite struct PersonalNoticeTests {
    @Test func everyTransitionWritesANoticeForTheOwnerInItsTransaction() async throws {
        let f = try await Fixture.make()
        let request = try await f.service.createRequest(for: f.alice.id, start: f.day(7), end: f.day(9), comment: "", actor: f.alice.actor)
        #expect(try await f.count("notices") == 0)  // her own request: nothing to tell her
        try await f.service.perform(.approve, on: request.id, by: f.admin.actor, note: "Enjoy")
        try await f.service.perform(.revert, on: request.id, by: f.secondAdmin.actor)
        try await f.service.perform(.reject, on: request.id, by: f.admin.actor, note: "Audit week")

        let board = try await f.services.notices.board(for: f.alice.actor)
        #expect(board.total == 3 && board.unread == 3)
        let moves = board.items.compactMap(\.transition).map { "\($0.from?.rawValue ?? "-")>\($0.to.rawValue)" }
        #expect(moves == ["pending>rejected", "approved>pending", "pending>approved"])  // newest first
        let rejection = board.items[0]
        #expect(rejection.kind == .personal && rejection.author == "admin" && rejection.transition?.note == "Audit week")
        #expect(rejection.body.contains("Ada Admin rejected your request \(request.id)") && rejection.body.hasSuffix("Reason: Audit week"))
        #expect(rejection.transition?.startDate == f.day(7))

        // Nobody else sees them.
        #expect(try await f.services.notices.board(for: f.bob.actor).total == 0)
        #expect(try await f.services.notices.board(for: f.admin.actor).total == 0)
    }

    @Test func aRefusedTransitionWritesNoNotice() async throws {
        let f = try await Fixture.make()
        let request = try await f.service.createRequest(for: f.alice.id, start: f.day(7), end: f.day(9), comment: "", actor: f.alice.actor)
        try await f.service.perform(.cancel, on: request.id, by: f.alice.actor)
        await #expect(throws: SGError.self) { try await f.service.perform(.approve, on: request.id, by: f.admin.actor) }
        await #expect(throws: SGError.self) { try await f.service.perform(.cancel, on: request.id, by: f.bob.actor) }
        let notices = try await f.services.notices.board(for: f.alice.actor)
        #expect(notices.total == 1)
        // Her own cancel is on her board, already read.
        #expect(notices.unread == 0 && notices.items[0].readAt != nil && notices.items[0].body.hasPrefix("You cancelled"))
    }

    @Test func aRequestMadeForSomeoneElseIsToldToThem() async throws {
        let f = try await Fixture.make()
        _ = try await f.service.createRequest(for: f.bob.id, start: f.day(7), end: f.day(7), comment: "Covering", actor: f.admin.actor)
        let board = try await f.services.notices.board(for: f.bob.actor)
        #expect(board.total == 1 && board.unread == 1)
        #expect(board.items[0].transition?.from == nil && board.items[0].transition?.to == .pending)
    }

    @Test func personalNoticesAreRecordsOnlyTheirReadFlagChanges() async throws {
        let f = try await Fixture.make()
        let request = try await f.service.createRequest(for: f.alice.id, start: f.day(7), end: f.day(9), comment: "", actor: f.alice.actor)
        try await f.service.perform(.approve, on: request.id, by: f.admin.actor)
        let id = try #require(try await f.services.notices.board(for: f.alice.actor).items.first?.id)
        await #expect(throws: (any Error).self) {
            try await f.database.execute(sql: "UPDATE notices SET body = 'forged' WHERE id = ?", [.integer(id)])
        }
        await #expect(throws: SGError.notFound("Notice \(id) does not exist.")) {
            _ = try await f.services.notices.mark(id: id, read: true, by: f.bob.id)
        }
        let read = try await f.services.notices.mark(id: id, read: true, by: f.alice.id)
        #expect(read.readAt != nil)
        // Marking again keeps the first time.
        f.clock.set(f.clock.now().addingTimeInterval(60))
        #expect(try await f.services.notices.mark(id: id, read: true, by: f.alice.id).readAt == read.readAt)
        #expect(try await f.services.notices.mark(id: id, read: false, by: f.alice.id).readAt == nil)
        await #expect(throws: SGError.self) { try await f.services.notices.delete(id: id, by: f.admin.actor) }
    }
}

@Suite struct CompanyNoticeTests {
    @Test func theBoardShowsPinnedFirstThenNewestAndHidesExpired() async throws {
        let f = try await Fixture.make()
        let admin = f.admin.actor
        let old = try await f.services.notices.post(NoticeDraft(title: "Old", body: "x"), by: admin)
        let pinned = try await f.services.notices.post(NoticeDraft(title: "Pinned", body: "x", pinned: true), by: admin)
        let brief = try await f.services.notices.post(NoticeDraft(title: "Brief", body: "x", expiresOn: f.day(1)), by: admin)
        let new = try await f.services.notices.post(NoticeDraft(title: "New", body: "x"), by: admin)
        func titles(_ viewer: Actor, includeExpired: Bool = false) async throws -> [String] {
            try await f.services.notices.board(for: viewer, includeExpired: includeExpired).items.map(\.title)
        }
        #expect(try await titles(f.bob.actor) == ["Pinned", "New", "Brief", "Old"])

        // Two days on, "Brief" (shown through tomorrow) is gone, except for those who ask for expired ones.
        f.clock.set(f.clock.now().addingTimeInterval(2 * 86_400))
        #expect(try await titles(f.bob.actor) == ["Pinned", "New", "Old"])
        #expect(try await titles(Actor(employeeID: nil, name: "ops (sgadmin)", isAdmin: true), includeExpired: true) == ["Pinned", "New", "Brief", "Old"])
        await #expect(throws: SGError.notFound("Notice \(brief.id) does not exist.")) {
            _ = try await f.services.notices.notice(id: brief.id, for: f.bob.actor)
        }

        // Pages follow the same order and meet exactly.
        var after: NoticeCursor?
        var seen: [Int64] = []
        while true {
            let page = try await f.services.notices.board(for: f.admin.actor, includeExpired: true, after: after, limit: 1)
            #expect(page.total == 4)
            seen += page.items.map(\.id)
            guard let next = page.next else { break }
            after = next
        }
        #expect(seen == [pinned.id, new.id, brief.id, old.id])
        #expect(NoticeCursor("1.7") == NoticeCursor(pinned: true, id: 7) && NoticeCursor("2.7") == nil && NoticeCursor("1.x") == nil)
    }

    @Test func onlyAdminsPostEditAndDelete() async throws {
        let f = try await Fixture.make()
        await #expect(throws: SGError.self) {
            _ = try await f.services.notices.post(NoticeDraft(title: "Hi", body: "x"), by: f.alice.actor)
        }
        let notice = try await f.services.notices.post(NoticeDraft(title: "Hi", body: "x"), by: f.admin.actor)
        let edited = try await f.services.notices.edit(
            id: notice.id, NoticePatch(pinned: true, expiresOn: .set(f.day(3))), by: f.secondAdmin.actor)
        #expect(edited.pinned && edited.expiresOn == f.day(3) && edited.title == "Hi")
        await #expect(throws: SGError.self) {
            _ = try await f.services.notices.edit(id: notice.id, NoticePatch(title: ""), by: f.admin.actor)
        }
        await #expect(throws: SGError.self) { try await f.services.notices.delete(id: notice.id, by: f.alice.actor) }
        try await f.services.notices.delete(id: notice.id, by: f.admin.actor)
        #expect(try await f.count("notices") == 0)
    }
}

@Suite struct ProfileStoreTests {
    @Test func updatesOnlyWhatThePatchNamesAndChecksBirthDatesAgainstTheCompanyToday() async throws {
        let f = try await Fixture.make()
        var patch = ProfilePatch()
        patch.position = .set("Engineer")
        patch.birthDate = .set("1990-05-17")
        let profile = try await f.services.people.updateProfile(employeeID: f.alice.id, patch, owned: [], directoryKind: "local")
        #expect(profile.position == "Engineer" && profile.employee.name == "Alice")
        #expect(try await f.services.people.profile(employeeID: f.alice.id) == profile)

        var future = ProfilePatch()
        future.position = .set("Manager")
        future.birthDate = .set(f.day(1).description)
        await #expect(throws: SGError.self) {
            _ = try await f.services.people.updateProfile(employeeID: f.alice.id, future, owned: [], directoryKind: "local")
        }
        #expect(try await f.services.people.profile(employeeID: f.alice.id).position == "Engineer")  // nothing half-written
    }

    @Test func aProvisioningDirectoryHoldsNameSurnameAndEmail() throws {
        #expect(ProvisioningDirectory().ownedFields == [.name, .surname, .email])
        #expect(LocalAccountDirectory(accounts: try AppDatabase.inMemory().accountStore, cost: 4).ownedFields.isEmpty)
    }

    @Test func photosAreStoredWithAVersionThatChangesWithTheBytes() async throws {
        let f = try await Fixture.make()
        let (first, inspected) = try await f.services.people.setPhoto(employeeID: f.alice.id, bytes: TestImages.png())
        #expect(inspected.contentType == "image/png" && inspected.width == 2)
        let (second, _) = try await f.services.people.setPhoto(employeeID: f.alice.id, bytes: TestImages.jpeg())
        #expect(first.etag != second.etag && second.contentType == "image/jpeg")
        #expect(try await f.services.people.profile(employeeID: f.alice.id).photo == second)
        #expect(try await f.services.people.photo(employeeID: f.alice.id).data == Data(TestImages.jpeg()))
        #expect(try await f.services.people.photo(employeeID: f.alice.id) { _ in false }.data == nil)
        #expect(try await f.count("employee_photos") == 1)
        await #expect(throws: SGError.self) { _ = try await f.services.people.setPhoto(employeeID: f.bob.id, bytes: TestImages.gif) }
        #expect(try await f.services.people.deletePhoto(employeeID: f.alice.id))
        #expect(!(try await f.services.people.deletePhoto(employeeID: f.alice.id)))
        await #expect(throws: SGError.notFound("Employee \(f.alice.id) has no photo.")) { _ = try await f.services.people.photo(employeeID: f.alice.id) }
        await #expect(throws: SGError.notFound("Employee 999 does not exist.")) { _ = try await f.services.people.photo(employeeID: 999) }
    }
}

@Suite struct DirectoryStoreTests {
    @Test func searchesWithoutCaseOrAccentsInDirectoryOrder() async throws {
        let f = try await Fixture.make()
        for (username, name, surname) in [("zed", "Zoë", "Álvarez"), ("ana", "Ana", "Zapata"), ("nunez2", "Jose", "Nuñez")] {
            _ = try await f.services.accounts.addEmployee(NewEmployee(
                username: username, name: name, surname: surname, email: "\(username)@example.com", isAdmin: false, passwordHash: nil))
        }
        var patch = ProfilePatch()
        patch.position = .set("Jefa de Ingeniería")
        _ = try await f.services.people.updateProfile(employeeID: f.alice.id, patch, owned: [], directoryKind: "local")

        let everyone = try await f.services.people.list(PeopleQuery())
        // Álvarez sorts with A, not after Z; the two Núñez/Nuñez sort by name, then id.
        #expect(everyone.items.map(\.employee.username) == ["admin", "zed", "admin2", "alice", "nunez2", "bob", "ana"])
        #expect(everyone.total == 7 && everyone.active == 7 && everyone.nextAfterID == nil)

        func usernames(_ search: String) async throws -> [String] {
            try await f.services.people.list(PeopleQuery(search: search)).items.map(\.employee.username)
        }
        #expect(try await usernames("jose") == ["nunez2", "bob"])
        #expect(try await usernames("JOSÉ núñez") == ["nunez2", "bob"])
        #expect(try await usernames("ingenieria") == ["alice"])
        #expect(try await usernames("zed@example") == ["zed"])
        #expect(try await usernames("nobody").isEmpty)
        #expect(try await usernames("   ").count == 7)

        _ = try await f.services.accounts.deactivate(username: "bob")
        let active = try await f.services.people.list(PeopleQuery(search: "jose", active: true))
        #expect(active.items.map(\.employee.username) == ["nunez2"] && active.total == 1)
        let all = try await f.services.people.list(PeopleQuery(search: "jose"))
        #expect(all.total == 2 && all.active == 1)
        #expect(try await f.services.people.list(PeopleQuery(active: false)).items.map(\.employee.username) == ["bob"])
    }

    @Test func foldedCopiesNeverGoStaleWhoeverWrites() async throws {
        let f = try await Fixture.make()
        func usernames(_ search: String) async throws -> [String] {
            try await f.services.people.list(PeopleQuery(search: search)).items.map(\.employee.username)
        }
        #expect(try await usernames("jose") == ["bob"])
        // Behind the directory's back: a hand edit, and a login through a directory that provisions employees.
        try await f.database.execute(sql: "UPDATE employees SET name = 'Émile' WHERE username = 'bob'")
        _ = try await f.services.accounts.provision(DirectoryAccount(username: "zoe", name: "Zoë", surname: "Ærø", email: "zoe@example.com", isAdmin: false))
        #expect(try await usernames("jose").isEmpty)
        #expect(try await usernames("emile") == ["bob"])
        #expect(try await usernames("zoe aero") == ["zoe"])
        // "Ærø" sorts as "aero": after "Admin", before "Boss".
        #expect(try await f.services.people.list(PeopleQuery()).items.map(\.employee.username) == ["admin", "zoe", "admin2", "alice", "bob"])

        // Writing the values a row already holds (every directory login does) leaves the copies in place, so the
        // next directory read has nothing to refill.
        func unfolded() async throws -> Bool { try await f.database.peopleStore.read { tx in try tx.hasUnfolded() } }
        #expect(try await unfolded() == false)
        _ = try await f.services.accounts.provision(DirectoryAccount(username: "zoe", name: "Zoë", surname: "Ærø", email: "zoe@example.com", isAdmin: false))
        try await f.database.execute(sql: "UPDATE employees SET name = name, position = position")
        #expect(try await unfolded() == false)
        try await f.database.execute(sql: "UPDATE employees SET name = 'Zoé' WHERE username = 'zoe'")
        #expect(try await unfolded())
    }

    /// Every write of the services that adds an employee or changes a field the copies come from fills them in
    /// the same transaction: right after it, nothing is left for a read to fold.
    @Test func theServicesFoldWhatTheyWrite() async throws {
        let f = try await Fixture.make()
        func unfolded() async throws -> Bool { try await f.database.peopleStore.read { tx in try tx.hasUnfolded() } }
        func usernames(_ search: String? = nil) async throws -> [String] {
            try await f.services.people.list(PeopleQuery(search: search)).items.map(\.employee.username)
        }
        #expect(try await unfolded() == false)
        let added = try await f.services.accounts.addEmployee(NewEmployee(
            username: "nunez", name: "José", surname: "Ñúñez", email: "nunez@example.com", isAdmin: false, passwordHash: nil))
        #expect(try await unfolded() == false)
        _ = try await f.services.accounts.provision(
            DirectoryAccount(username: "oersted", name: "Hans", surname: "Ørsted", email: "hc@example.com", isAdmin: false))
        #expect(try await unfolded() == false)
        // "Ñúñez" as "nunez", before bob's "Núñez, \"Pepe\""; "Ørsted" as "orsted".
        #expect(try await usernames() == ["admin", "admin2", "alice", "nunez", "bob", "oersted"])
        // The directory renames, an admin renames, the employee renames.
        _ = try await f.services.accounts.provision(
            DirectoryAccount(username: "oersted", name: "Hans", surname: "Aagaard", email: "hc@example.com", isAdmin: false))
        #expect(try await unfolded() == false)
        var change = EmployeeChange()
        change.profile.surname = .set("Zúñiga")
        _ = try await f.services.accounts.update(employeeID: added.id, change, by: f.admin.actor, directory: f.localAccounts)
        #expect(try await unfolded() == false)
        var patch = ProfilePatch()
        patch.name = .set("Éowyn")
        _ = try await f.services.people.updateProfile(employeeID: f.alice.id, patch, owned: [], directoryKind: "local")
        #expect(try await unfolded() == false)
        #expect(try await usernames() == ["oersted", "admin", "admin2", "alice", "bob", "nunez"])
        #expect(try await usernames("eowyn") == ["alice"])
        #expect(try await usernames("zuniga jose") == ["nunez"])
    }

    /// Employees written by something other than the services (a database written before they folded what they
    /// write, a hand edit) are folded by the first read in list order, a few at a time (`foldsPerWrite`), each write
    /// its own, until none is left; the list then has them all in its order.
    @Test func manyUnfoldedEmployeesAreFoldedInSeveralWrites() async throws {
        let f = try await Fixture.make()
        for (index, surname) in ["Zapata", "Álvarez", "Ñúñez", "Berg", "Ærø", "Mäki", "Ørsted"].enumerated() {
            _ = try await f.services.accounts.addEmployee(NewEmployee(
                username: "e\(index)", name: "Name", surname: surname, email: "e\(index)@example.com", isAdmin: false,
                passwordHash: nil))
        }
        try await f.database.execute(sql: "UPDATE employees SET search_text = NULL, sort_key = NULL")
        let unfolded = try await f.database.peopleStore.read { tx in try tx.unfolded(limit: 100) }
        #expect(unfolded.count == 11)  // the fixture's four too
        #expect(try await f.database.peopleStore.read { tx in try tx.unfolded(limit: 3) }.map(\.employeeID) == Array(unfolded.map(\.employeeID).prefix(3)))
        try await f.services.people.refreshFoldedCopiesIfNeeded(foldsPerWrite: 2)
        #expect(try await f.database.peopleStore.read { tx in try tx.hasUnfolded() } == false)
        // Folded: "Álvarez" as "alvarez", "Ærø" as "aero", "Ñúñez" as "nunez", "Ørsted" as "orsted", "Mäki" as "maki".
        #expect(try await f.services.people.list(PeopleQuery()).items.map(\.employee.username)
            == ["admin", "e4", "e1", "e3", "admin2", "alice", "e5", "e2", "bob", "e6", "e0"])
    }

    @Test func pagesMeetExactly() async throws {
        let f = try await Fixture.make()
        var query = PeopleQuery(limit: 3)
        var seen: [String] = []
        while true {
            let page = try await f.services.people.list(query)
            seen += page.items.map(\.employee.username)
            guard let next = page.nextAfterID else { break }
            query.afterID = next
        }
        #expect(seen == ["admin", "admin2", "alice", "bob"])
        await #expect(throws: SGError.self) { _ = try await f.services.people.list(PeopleQuery(afterID: 999)) }
        await #expect(throws: SGError.self) { _ = try await f.services.people.list(PeopleQuery(search: String(repeating: "a", count: 101))) }
    }
}

@Suite struct SettingsStoreTests {
    @Test func devicesAreIdempotentAndGoWhenNotificationsAreTurnedOff() async throws {
        let f = try await Fixture.make()
        let token = "apns-0123456789abcdef"
        let (device, created) = try await f.services.devices.registerDevice(employeeID: f.alice.id, token: token, platform: .ios)
        #expect(created && device.platform == .ios)
        f.clock.set(f.clock.now().addingTimeInterval(60))
        let (again, createdAgain) = try await f.services.devices.registerDevice(employeeID: f.alice.id, token: token, platform: .ios)
        #expect(!createdAgain && again.createdAt == device.createdAt && again.updatedAt > device.updatedAt)
        _ = try await f.services.devices.registerDevice(employeeID: f.alice.id, token: "fcm:second-device", platform: .android)
        #expect(try await f.services.devices.settings(employeeID: f.alice.id).devices.count == 2)

        // The same app install logging in as bob moves the token to him.
        let (moved, movedCreated) = try await f.services.devices.registerDevice(employeeID: f.bob.id, token: token, platform: .ios)
        #expect(movedCreated && moved.createdAt > device.createdAt)
        #expect(try await f.services.devices.settings(employeeID: f.alice.id).devices.map(\.token) == ["fcm:second-device"])
        await #expect(throws: SGError.self) { try await f.services.devices.removeDevice(employeeID: f.alice.id, token: token) }

        let off = try await f.services.devices.setChannels(employeeID: f.alice.id, push: false)
        #expect(off == NotificationSettings(channels: NotificationChannels(push: false, email: true), devices: []))
        let noMail = try await f.services.devices.setChannels(employeeID: f.alice.id, email: false)
        #expect(noMail.channels == NotificationChannels(push: false, email: false))
        await #expect(throws: SGError.self) {
            _ = try await f.services.devices.registerDevice(employeeID: f.alice.id, token: token, platform: .ios)
        }
        #expect(try await f.services.devices.settings(employeeID: f.bob.id).devices.count == 1)
        try await f.services.devices.removeDevice(employeeID: f.bob.id, token: token)
        #expect(try await f.count("devices") == 0)
    }
}

@Suite struct CompanyStoreTests {
    @Test func aCompanyChangeIsAllOrNothingAndKeepsTheAllowanceRule() async throws {
        let f = try await Fixture.make()
        _ = try await f.service.createRequest(for: f.alice.id, start: f.weekday(7), end: f.weekday(7).adding(days: 4)!, comment: "", actor: f.alice.actor)
        var patch = CompanyPatch()
        patch.name = "Renamed"
        patch.website = .set("https://acme.example")
        patch.defaultAllowance = 3  // alice holds 5 days this year
        await #expect(throws: SGError.self) { try await f.services.company.updateCompany(patch, by: f.admin.actor) }
        #expect(try await f.services.company.company().settings.name == "SGEmployee")
        #expect(try await f.services.company.company().contact.website == nil)

        patch.defaultAllowance = 5
        let updated = try await f.services.company.updateCompany(patch, by: f.admin.actor)
        #expect(updated.settings.name == "Renamed" && updated.settings.defaultAllowance == 5)
        #expect(try await f.services.company.company() == updated)
        await #expect(throws: SGError.self) { try await f.services.company.updateCompany(patch, by: f.alice.actor) }
    }
}

@Suite struct DemoPeopleTests {
    @Test func theDemoCompanyHasProfilesNoticesAndContactDetails() async throws {
        let database = try AppDatabase.inMemory()
        _ = try #require(try await DemoCompany.seedIfEmpty(database, today: Fixture.today, bcryptCost: 4))
        let jose = try #require(try await database.services().accounts.employee(username: "jose"))
        let board = try await database.services(clock: FixedClock(today: Fixture.today)).notices.board(for: jose.actor)
        #expect(board.items.first?.title == "Welcome to SGEmployee")
        #expect(board.items.contains { $0.transition?.to == .rejected })
        #expect(try await database.services().people.list(PeopleQuery(search: "disenadora")).items.map(\.employee.username) == ["carmen"])
        #expect(try await database.services().company.company().contact.website == "https://example.com")
    }
}
