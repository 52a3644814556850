import Foundation
import Testing
import SGCore
import SGTestSupport
@testable import SGStore

/// An admin's changes of employees: the rules `PATCH /v1/employees/{id}` and `sgadmin user` share.
@Suite struct EmployeeAdministrationTests {
    static func conflict(_ containing: String) -> @Sendable (any Error) -> Bool {
        { error in
            guard case .conflict(let message)? = error as? SGError else { return false }
            return message.contains(containing)
        }
    }

    @Test func theLastActiveAdminIsNeitherDemotedNorDeactivated() async throws {
        let f = try await Fixture.make()
        let accounts = f.services.accounts
        let local = f.localAccounts
        // Two admins: one may go.
        let demoted = try await accounts.update(
            employeeID: f.secondAdmin.id, EmployeeChange(isAdmin: false), by: f.admin.actor, directory: local)
        #expect(!demoted.employee.isAdmin && demoted.employee.isActive)

        var change = EmployeeChange(isAdmin: false)
        change.profile.position = .set("Chief executive")
        await #expect(performing: {
            _ = try await accounts.update(employeeID: f.admin.id, change, by: f.admin.actor, directory: local)
        }, throws: Self.conflict("You cannot deactivate yourself or give up your own admin role"))
        await #expect(performing: {
            _ = try await accounts.update(employeeID: f.admin.id, EmployeeChange(isActive: false), by: f.admin.actor, directory: local)
        }, throws: Self.conflict("You cannot deactivate yourself"))
        await #expect(performing: {
            _ = try await accounts.update(
                employeeID: f.admin.id, EmployeeChange(isActive: false), by: Fixture.operatorActor, directory: local)
        }, throws: Self.conflict("admin is the last active admin"))
        await #expect(performing: {
            _ = try await accounts.deactivate(username: "admin")
        }, throws: Self.conflict("admin is the last active admin"))

        // Nothing of the refused change was written, the position included.
        let admin = try await f.services.people.profile(employeeID: f.admin.id)
        #expect(admin.employee.isAdmin && admin.employee.isActive && admin.position == nil)

        // An inactive admin does not count: granting the role to a deactivated employee leaves admin the last.
        _ = try await accounts.update(
            employeeID: f.bob.id, EmployeeChange(isActive: false, isAdmin: true), by: f.admin.actor, directory: local)
        await #expect(performing: {
            _ = try await accounts.update(employeeID: f.admin.id, EmployeeChange(isAdmin: false), by: Fixture.operatorActor, directory: local)
        }, throws: Self.conflict("last active admin"))

        // Once alice is an admin, she may demote admin and even deactivate him.
        _ = try await accounts.update(employeeID: f.alice.id, EmployeeChange(isAdmin: true), by: f.admin.actor, directory: local)
        let alice = Actor(employeeID: f.alice.id, name: "alice", isAdmin: true)
        let gone = try await accounts.update(
            employeeID: f.admin.id, EmployeeChange(isActive: false, isAdmin: false), by: alice, directory: local)
        #expect(!gone.employee.isAdmin && !gone.employee.isActive)
    }

    @Test func deactivationEndsTheSessionsAndReactivationLetsThemBackIn() async throws {
        let f = try await Fixture.make()
        let sessions = f.sessions()
        let token = try await sessions.login(username: "bob", password: Fixture.password)
        #expect(try await sessions.authenticate(token: token.token) != nil)

        let off = try await f.services.accounts.update(
            employeeID: f.bob.id, EmployeeChange(isActive: false), by: f.admin.actor, directory: f.localAccounts)
        #expect(!off.employee.isActive)
        #expect(try await sessions.authenticate(token: token.token) == nil)
        await #expect(throws: SGError.self) { _ = try await sessions.login(username: "bob", password: Fixture.password) }
        // Deactivating again changes nothing and is no error for a merge patch.
        _ = try await f.services.accounts.update(
            employeeID: f.bob.id, EmployeeChange(isActive: false), by: f.admin.actor, directory: f.localAccounts)

        let on = try await f.services.accounts.update(
            employeeID: f.bob.id, EmployeeChange(isActive: true), by: f.admin.actor, directory: f.localAccounts)
        #expect(on.employee.isActive)
        let again = try await sessions.login(username: "bob", password: Fixture.password)
        #expect(try await sessions.authenticate(token: again.token)?.id == f.bob.id)
    }

    @Test func anAdminChangesTheHRFieldsUnderTheProfileRules() async throws {
        let f = try await Fixture.make()
        let accounts = f.services.accounts
        var change = EmployeeChange()
        change.profile.name = .set("  Alicia ")
        change.profile.email = .set("alicia@example.com")
        change.profile.position = .set("Head of sales")
        change.profile.phone = .set("+34 600 111 222")
        let changed = try await accounts.update(employeeID: f.alice.id, change, by: f.admin.actor, directory: f.localAccounts)
        #expect(changed.employee.name == "Alicia" && changed.employee.email == "alicia@example.com")
        #expect(changed.position == "Head of sales" && changed.phone == "+34 600 111 222")
        // The people list finds the new position.
        #expect(try await f.services.people.list(PeopleQuery(search: "sales")).items.map(\.employee.id) == [f.alice.id])

        for (field, patch) in [
            ("email", { var p = ProfilePatch(); p.email = .set("not an address"); return p }()),
            ("email", { var p = ProfilePatch(); p.email = .clear; return p }()),
            ("surname", { var p = ProfilePatch(); p.surname = .clear; return p }()),
            ("phone", { var p = ProfilePatch(); p.phone = .set("12"); return p }()),
        ] {
            var bad = EmployeeChange(isActive: false)
            bad.profile = patch
            await #expect(performing: {
                _ = try await accounts.update(employeeID: f.alice.id, bad, by: f.admin.actor, directory: f.localAccounts)
            }, throws: { error in
                if case .invalid(field, _)? = error as? SGError { return true }
                return false
            })
        }
        // None of the refused changes deactivated alice.
        #expect(try await accounts.employee(id: f.alice.id)?.isActive == true)

        await #expect(throws: SGError.forbidden("Only an admin can add or change employees.")) {
            _ = try await accounts.update(employeeID: f.bob.id, EmployeeChange(isActive: false), by: f.alice.actor, directory: f.localAccounts)
        }
        await #expect(throws: SGError.notFound("Employee 999 does not exist.")) {
            _ = try await accounts.update(employeeID: 999, EmployeeChange(isAdmin: true), by: f.admin.actor, directory: f.localAccounts)
        }
    }

    @Test func aLocalAccountIsAddedOnceAndOnlyWithLocalLogins() async throws {
        let f = try await Fixture.make()
        let accounts = f.services.accounts
        let passwords = PasswordService(store: f.database.passwordStore, hasher: BcryptPasswordHasher(cost: 4), clock: f.clock)
        func new(_ username: String, email: String = "maria@example.com") -> NewEmployee {
            NewEmployee(username: username, name: "María", surname: "Peña", email: email, isAdmin: false, passwordHash: nil)
        }
        let maria = try await accounts.addLocalAccount(
            new("maria"), password: "a-long-password", passwords: passwords, directory: f.localAccounts, by: f.admin.actor)
        #expect(maria.isActive && !maria.isAdmin)
        #expect(try await f.sessions().login(username: "maria", password: "a-long-password").employee.id == maria.id)

        let before = try await f.count("employees")
        await #expect(performing: {
            _ = try await accounts.addLocalAccount(
                new("MARIA"), password: "a-long-password", passwords: passwords, directory: f.localAccounts, by: f.admin.actor)
        }, throws: Self.conflict("is taken"))
        await #expect(throws: SGError.invalid(field: "password", message: "at least 10 characters")) {
            _ = try await accounts.addLocalAccount(
                new("pedro"), password: "short", passwords: passwords, directory: f.localAccounts, by: f.admin.actor)
        }
        await #expect(throws: SGError.self) {
            _ = try await accounts.addLocalAccount(
                new("pedro", email: "nope"), password: "a-long-password", passwords: passwords, directory: f.localAccounts,
                by: f.admin.actor)
        }
        await #expect(throws: SGError.forbidden("Only an admin can add or change employees.")) {
            _ = try await accounts.addLocalAccount(
                new("pedro"), password: "a-long-password", passwords: passwords, directory: f.localAccounts, by: f.bob.actor)
        }
        await #expect(performing: {
            _ = try await accounts.addLocalAccount(
                new("pedro"), password: "a-long-password", passwords: passwords, directory: DirectoryOfRecord(), by: f.admin.actor)
        }, throws: Self.conflict("creates each employee at their first login"))
        #expect(try await f.count("employees") == before)
    }
}

/// A directory that creates its employees at login: only what the account rules ask of it is answered.
private struct DirectoryOfRecord: EmployeeDirectory {
    let kind = "ldap"
    let provisionsEmployees = true
    func authenticate(username: String, password: String) async throws -> DirectoryAccount {
        throw SGError.unauthenticated("Wrong username or password.")
    }
}

/// Employment dates: an admin's to set, and no request holds a day outside them.
@Suite struct EmploymentTests {
    static func invalid(_ field: String) -> @Sendable (any Error) -> Bool {
        { error in
            guard case .invalid(let named, _)? = error as? SGError else { return false }
            return named == field
        }
    }

    @Test func requestsFallWithinTheEmploymentAndTheDatesCannotLeaveOneOutside() async throws {
        let f = try await Fixture.make()
        let accounts = f.services.accounts
        func employ(_ start: SGCore.Change<CalendarDate>, _ end: SGCore.Change<CalendarDate>) async throws -> Profile {
            var change = EmployeeChange()
            change.employment = EmploymentChange(start: start, end: end)
            return try await accounts.update(employeeID: f.alice.id, change, by: f.admin.actor, directory: f.localAccounts)
        }
        func request(_ start: String, _ end: String) async throws -> HolidayRequest {
            try await f.service.createRequest(
                for: f.alice.id, start: Fixture.date(start), end: Fixture.date(end), comment: "", actor: f.alice.actor)
        }
        #expect(try await f.services.people.profile(employeeID: f.alice.id).employment == Employment())

        // Employed from Monday 4 May to Tuesday 30 June 2026.
        let employed = try await employ(.set(Fixture.date("2026-05-04")), .set(Fixture.date("2026-06-30")))
        #expect(employed.employment == Employment(start: Fixture.date("2026-05-04"), end: Fixture.date("2026-06-30")))
        await #expect(performing: { _ = try await request("2026-04-30", "2026-05-05") }, throws: Self.invalid("startDate"))
        await #expect(performing: { _ = try await request("2026-06-29", "2026-07-01") }, throws: Self.invalid("endDate"))
        let june = try await request("2026-06-29", "2026-06-30")
        #expect(june.duration == .days(2))

        // The dates cannot leave a held request outside, nor end before they start; nothing is written then.
        await #expect(performing: { _ = try await employ(.keep, .set(Fixture.date("2026-06-29"))) },
                      throws: EmployeeAdministrationTests.conflict("holds request \(june.id) (2026-06-29 to 2026-06-30, pending)"))
        await #expect(performing: { _ = try await employ(.set(Fixture.date("2026-07-01")), .clear) },
                      throws: EmployeeAdministrationTests.conflict("holds request \(june.id)"))
        await #expect(performing: { _ = try await employ(.keep, .set(Fixture.date("2026-05-03"))) }, throws: Self.invalid("employmentEnd"))
        #expect(try await f.services.people.profile(employeeID: f.alice.id).employment == employed.employment)

        // Once the request is cancelled the end may move before it; clearing both dates leaves no bound.
        try await f.service.perform(.cancel, on: june.id, by: f.alice.actor)
        #expect(try await employ(.keep, .set(Fixture.date("2026-06-26"))).employment.end == Fixture.date("2026-06-26"))
        await #expect(performing: { _ = try await request("2026-06-29", "2026-06-29") }, throws: Self.invalid("endDate"))
        #expect(try await employ(.clear, .clear).employment == Employment())
        #expect(try await request("2026-04-27", "2026-04-27").duration == .days(1))
    }

    @Test func theDatabaseRefusesAnEndBeforeTheStart() async throws {
        let f = try await Fixture.make()
        await #expect(throws: (any Error).self) {
            try await f.database.execute(
                sql: "UPDATE employees SET employment_start = '2026-05-04', employment_end = '2026-05-03' WHERE id = \(f.alice.id)")
        }
        await #expect(throws: (any Error).self) {
            try await f.database.execute(sql: "UPDATE employees SET employment_start = '4 May 2026' WHERE id = \(f.alice.id)")
        }
    }
}

/// Pro rata in the ledger: the balance follows the employment and the working week, and no change of either (or
/// of the company's rule) may leave a year with fewer days than it holds.
@Suite struct ProRataLedgerTests {
    @Test func theAllowanceFollowsTheContractAndContractChangesAreChecked() async throws {
        let f = try await Fixture.make()
        func employ(_ who: Employee, start: String? = nil, end: String? = nil) async throws {
            var change = EmployeeChange()
            change.employment = EmploymentChange(
                start: start.map { .set(Fixture.date($0)) } ?? .keep, end: end.map { .set(Fixture.date($0)) } ?? .keep)
            _ = try await f.services.accounts.update(employeeID: who.id, change, by: f.admin.actor, directory: f.localAccounts)
        }
        func proRata(_ method: String) async throws {
            var patch = CompanyPatch()
            patch.proRata = method
            _ = try await f.services.company.updateCompany(patch, by: f.admin.actor)
        }
        let conflict: @Sendable (any Error) -> Bool = { error in
            guard case .conflict(let message)? = error as? SGError else { return false }
            return message.contains("its allowance would be")
        }
        try await proRata("whole-months")
        try await employ(f.alice, start: "2026-09-01")
        var balance = try await f.service.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance.allowance == HalfDays(halves: 15) && balance.allowanceFormula == "23 × 4/12 = 7.67 → 7.5")
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2027).allowanceFormula == nil)

        // Mon 7 to Wed 16 September: 8 working days, beyond 7.5; to Tue 15, 7.
        await #expect(throws: SGError.self) {
            try await f.service.createRequest(for: f.alice.id, start: Fixture.date("2026-09-07"), end: Fixture.date("2026-09-16"), comment: "", actor: f.alice.actor)
        }
        _ = try await f.service.createRequest(for: f.alice.id, start: Fixture.date("2026-09-07"), end: Fixture.date("2026-09-15"), comment: "", actor: f.alice.actor)

        // Leaving on 31 October would grant 23 × 2/12 = 4, a 3-day week 4.5: both below the 7 held, so refused whole.
        await #expect(performing: { try await employ(f.alice, end: "2026-10-31") }, throws: conflict)
        await #expect(performing: {
            _ = try await f.service.setWorkingWeek(employeeID: f.alice.id, from: Fixture.date("2026-09-01"), week: WorkingWeek(weekdays: [1, 2, 3]), by: f.admin.actor)
        }, throws: conflict)
        #expect(try await f.services.people.profile(employeeID: f.alice.id).employment.end == nil)
        #expect(try await f.service.workingWeeks(employeeID: f.alice.id, by: f.admin.actor).changes.isEmpty)

        // An allowance set for the year is taken as it is.
        try await f.service.setAllowance(employeeID: f.alice.id, year: 2026, days: 10, by: f.admin.actor)
        try await employ(f.alice, end: "2026-10-31")
        balance = try await f.service.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance.allowance == .days(10) && balance.allowanceFormula == nil && balance.remaining == .days(3))

        // The company's rule is checked like the contracts: bob, from November, holds 10 days while it is off.
        try await proRata("off")
        try await employ(f.bob, start: "2026-11-02")
        let november = try await f.service.createRequest(
            for: f.bob.id, start: Fixture.date("2026-11-02"), end: Fixture.date("2026-11-13"), comment: "", actor: f.bob.actor)
        await #expect(performing: { try await proRata("whole-months") }, throws: { error in
            guard case .conflict(let message)? = error as? SGError else { return false }
            return message.contains("would be left with fewer days than they hold")
        })
        #expect(try await f.services.company.company().settings.proRata == .off)
        try await f.service.perform(.cancel, on: november.id, by: f.bob.actor)
        try await proRata("calendar-days")
        #expect(try await f.service.balance(employeeID: f.bob.id, year: 2026).allowanceFormula == "23 × 60/365 = 3.78 → 4")
    }

    @Test func seniorityTiersJoinTheAllowanceAndTheirChangesAreChecked() async throws {
        let f = try await Fixture.make()
        var employ = EmployeeChange()
        employ.employment = EmploymentChange(start: .set(Fixture.date("2016-03-01")))
        _ = try await f.services.accounts.update(employeeID: f.alice.id, employ, by: f.admin.actor, directory: f.localAccounts)
        var patch = CompanyPatch()
        patch.seniority = [SeniorityPolicy.Tier(years: 5, days: 1), SeniorityPolicy.Tier(years: 10, days: 3)]
        _ = try await f.services.company.updateCompany(patch, by: f.admin.actor)
        var balance = try await f.service.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance.allowance == .days(26) && balance.allowanceFormula == "23 + 3 = 26")
        // From the anniversary (1 March): January and February at 23 + 1, the rest at 23 + 3.
        patch = CompanyPatch()
        patch.seniorityFrom = "anniversary"
        _ = try await f.services.company.updateCompany(patch, by: f.admin.actor)
        balance = try await f.service.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance.allowanceFormula == "(23 + 1) × 59/365 + (23 + 3) × 306/365 = 25.68 → 25.5")
        // 25.5 days held: removing the tiers would leave 23, so it is refused and the tiers stay.
        _ = try await f.service.createRequest(for: f.alice.id, start: Fixture.date("2026-06-01"), end: Fixture.date("2026-07-03"), comment: "", actor: f.alice.actor)
        _ = try await f.service.createRequest(
            for: f.alice.id, period: try LeavePeriod(start: Fixture.date("2026-07-06"), end: Fixture.date("2026-07-06"), startHalf: .morning, endHalf: .morning),
            comment: "", actor: f.alice.actor)
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2026).remaining == .zero)
        patch = CompanyPatch()
        patch.seniority = []
        await #expect(throws: SGError.self) { _ = try await f.services.company.updateCompany(patch, by: f.admin.actor) }
        #expect(try await f.services.company.company().settings.seniority.tiers.count == 2)
    }

    /// Random sequences of requests, decisions, employment dates, working weeks, the company's rules and accrual
    /// plans: the balance is always the sum of its parts, its allowance the rules' figure for the contract as stored,
    /// what is earned the plan's, no year goes below zero, no request takes more than could be requested, and no held
    /// request has a day outside the employment.
    @Test(arguments: [21, 22, 23] as [UInt64])
    func contractChangesNeverLeaveABalanceShortOrARequestOutside(seed: UInt64) async throws {
        let f = try await Fixture.make()
        var random = SeededRandom(seed: seed)
        let days = (0..<60).map { f.weekday(7 + 3 * $0) }
        var ids: [Int64] = []
        // What the sequence went through, so that it is known to have tried what it checks.
        var changed = 0, refused = 0, proRated = 0, accruing = 0
        for _ in 0..<120 {
            switch Int.random(in: 0..<12, using: &random) {
            case 0..<4:
                let start = days.randomElement(using: &random)!
                let end = days[min(days.count - 1, days.firstIndex(of: start)! + Int.random(in: 0...4, using: &random))]
                let before = try await f.service.balance(employeeID: f.alice.id, year: 2026)
                if let request = try? await f.service.createRequest(for: f.alice.id, start: start, end: end, comment: "", actor: f.alice.actor) {
                    ids.append(request.id)
                    #expect(request.duration <= before.requestable, "\(request.duration) of \(before.requestable)")
                }
            case 4..<6:
                guard let id = ids.randomElement(using: &random) else { continue }
                let action = HolidayAction.allCases.randomElement(using: &random)!
                _ = try? await f.service.perform(action, on: id, by: action == .cancel ? f.alice.actor : f.admin.actor, note: "x")
            case 6..<8:
                var change = EmployeeChange()
                let start: SGCore.Change<CalendarDate> = Bool.random(using: &random)
                    ? .clear : .set(Bool.random(using: &random) ? Fixture.date("2019-06-01") : days.randomElement(using: &random)!)
                let end: SGCore.Change<CalendarDate> = Bool.random(using: &random) ? .clear : .set(days.randomElement(using: &random)!)
                change.employment = EmploymentChange(start: start, end: end)
                if (try? await f.services.accounts.update(employeeID: f.alice.id, change, by: f.admin.actor, directory: f.localAccounts)) != nil {
                    changed += 1
                } else {
                    refused += 1
                }
            case 8:
                let week = [WorkingWeek.mondayToFriday, WorkingWeek(weekdays: [1, 2, 3])!, WorkingWeek(weekdays: [2, 4])!].randomElement(using: &random)!
                _ = try? await f.service.setWorkingWeek(employeeID: f.alice.id, from: days.randomElement(using: &random)!, week: week, by: f.admin.actor)
            default:
                var patch = CompanyPatch()
                patch.proRata = ProRataPolicy.Method.allCases.randomElement(using: &random)!.rawValue
                patch.proRataRounding = ProRataPolicy.Rounding.allCases.randomElement(using: &random)!.rawValue
                patch.seniority = Bool.random(using: &random) ? [] : [SeniorityPolicy.Tier(years: 5, days: 2)]
                patch.seniorityFrom = SeniorityPolicy.From.allCases.randomElement(using: &random)!.rawValue
                patch.accrual = ["year", "month:start:none", "month:end:3", "quarter:start:year", "quarter:end:none"]
                    .randomElement(using: &random).flatMap(AccrualPlan.init(code:))
                _ = try? await f.services.company.updateCompany(patch, by: f.admin.actor)
            }
            let company = try await f.services.company.company().settings
            let employment = try await f.services.people.profile(employeeID: f.alice.id).employment
            let weeks = try await f.service.workingWeeks(employeeID: f.alice.id, by: f.admin.actor)
            let requests = try await f.service.requests(RequestFilter(employeeID: f.alice.id, limit: 200), by: f.admin.actor).items.map(\.request)
            let held = requests.filter { $0.status.holdsDays }
            #expect(held.allSatisfy { employment.contains($0.startDate) && employment.contains($0.endDate) }, "\(employment)")
            let balance = try await f.service.balance(employeeID: f.alice.id, year: 2026)
            let expected = ProRata.grant(
                of: company.defaultAllowance, year: 2026, employment: employment,
                schedule: WorkingSchedule(company: weeks.company, changes: weeks.changes), policy: company.proRata,
                seniority: company.seniority)
            #expect(balance.allowance == expected.days && balance.allowanceFormula == expected.formula)
            if expected.formula != nil && !held.isEmpty { proRated += 1 }
            let approved = held.filter { $0.status == .approved }.map(\.duration).reduce(.zero, +)
            #expect(balance.approved == approved && balance.pending == held.map(\.duration).reduce(.zero, +) - approved)
            #expect(balance.remaining == balance.allowance - balance.approved - balance.pending && balance.remaining >= .zero)
            let accrued = company.accrual.apply(to: balance, employment: employment, on: f.today)
            #expect(balance.accrual == accrued.accrual && balance.requestable == max(.zero, balance.remaining - (accrued.accrual?.withheld ?? .zero)))
            if balance.accrual != nil { accruing += 1 }
        }
        #expect(
            changed > 0 && refused > 0 && proRated > 0 && accruing > 0,
            "changed \(changed), refused \(refused), pro-rated \(proRated), accruing \(accruing)")
    }

    @Test func anAccrualPlanLimitsWhatMayBeRequestedUntilItIsEarned() async throws {
        let f = try await Fixture.make()
        func plan(_ code: String) async throws {
            var patch = CompanyPatch()
            patch.accrual = AccrualPlan(code: code)!
            _ = try await f.services.company.updateCompany(patch, by: f.admin.actor)
        }
        func request(_ start: String, _ end: String) async throws -> HolidayRequest {
            try await f.service.createRequest(for: f.alice.id, start: Fixture.date(start), end: Fixture.date(end), comment: "", actor: f.alice.actor)
        }
        let notYetEarned: (String?) -> @Sendable (any Error) -> Bool = { fits in
            { error in
                guard case .notYetEarned(2026, _, _, let from)? = error as? SGError else { return false }
                return from?.description == fits
            }
        }
        // Today is 2 March: three monthly credits of 23 days, 5.5 earned.
        try await plan("month:start:none")
        var balance = try await f.service.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance.allowance == .days(23) && balance.accrual?.earned == HalfDays(halves: 11) && balance.requestable == HalfDays(halves: 11))
        #expect(balance.remaining == .days(23))
        // 9 to 16 March is 6 working days: it fits from 1 April. 9 to 13 March, 5, fits now.
        await #expect(performing: { _ = try await request("2026-03-09", "2026-03-16") }, throws: notYetEarned("2026-04-01"))
        #expect(try await f.service.requests(RequestFilter(employeeID: f.alice.id, limit: 10), by: f.admin.actor).items.isEmpty)
        _ = try await request("2026-03-09", "2026-03-13")
        balance = try await f.service.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance.remaining == .days(18) && balance.requestable == HalfDays(halves: 1))

        // An advance of 5 days lets 5 more be requested; the whole year, all of them.
        try await plan("month:start:5")
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2026).requestable == HalfDays(halves: 11))
        let ahead = try await request("2026-04-06", "2026-04-10")
        try await plan("month:start:year")
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2026).requestable == .days(13))
        // A stricter plan limits new requests only: the one taken ahead is still approved, and nothing more fits.
        try await plan("month:start:none")
        #expect(try await f.service.perform(.approve, on: ahead.id, by: f.admin.actor).status == .approved)
        #expect(try await f.service.balance(employeeID: f.alice.id, year: 2026).requestable == .zero)
        try await plan("month:start:year")

        // A plan of the employee's own wins over the company's: quarterly at the end, nothing credited before 31 March.
        var change = EmployeeChange()
        change.accrual = .set(AccrualPlan(code: "quarter:end:none")!)
        _ = try await f.services.accounts.update(employeeID: f.bob.id, change, by: f.admin.actor, directory: f.localAccounts)
        #expect(try await f.services.people.profile(employeeID: f.bob.id).accrual?.code == "quarter:end:none")
        balance = try await f.service.balance(employeeID: f.bob.id, year: 2026)
        #expect(balance.accrual?.earned == .zero && balance.requestable == .zero)
        await #expect(performing: {
            _ = try await f.service.createRequest(for: f.bob.id, start: Fixture.date("2026-03-09"), end: Fixture.date("2026-03-09"), comment: "", actor: f.bob.actor)
        }, throws: { error in
            guard case .notYetEarned(2026, .days(1), .zero, let from)? = error as? SGError else { return false }
            return from == Fixture.date("2026-03-31")
        })
        change.accrual = .clear
        _ = try await f.services.accounts.update(employeeID: f.bob.id, change, by: f.admin.actor, directory: f.localAccounts)
        #expect(try await f.services.people.profile(employeeID: f.bob.id).accrual == nil)
        #expect(try await f.service.balance(employeeID: f.bob.id, year: 2026).requestable == .days(23))
        // The yearly plan is the whole allowance at once, as without a plan.
        try await plan("year")
        balance = try await f.service.balance(employeeID: f.alice.id, year: 2026)
        #expect(balance.accrual == nil && balance.requestable == balance.remaining)
    }
}
