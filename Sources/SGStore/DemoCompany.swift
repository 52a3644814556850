import Foundation
import SGCore

/// A small demo company for `make run`: a dozen employees, one admin, two teams with their approvers (one deciding in
/// two stages), public holidays, requests in every state, a few profiles and notices. Every request goes through `HolidayService`, so the demo data obeys the same rules as real data.
public enum DemoCompany {
    public struct Login: Sendable {
        public let username: String
        public let password: String
        public let isAdmin: Bool
        /// The teams whose requests this login decides.
        public var approves: [String] = []
    }

    static let people: [(username: String, name: String, surname: String, admin: Bool)] = [
        ("admin", "Ada", "Administradora", true),
        ("alice", "Alice", "Example", false),
        ("jose", "José", "Núñez", false),
        ("zoe", "Zoë", "O'Brien", false),
        ("bob", "Bob", "Builder", false),
        ("carmen", "Carmen", "Sánchez-Peña", false),
        ("dmitri", "Dmitri", "Ivanov", false),
        ("eva", "Eva", "Müller", false),
        ("farid", "Farid", "Haddad", false),
        ("grace", "Grace", "Hopper, Jr.", false),
        ("hiro", "Hiro", "Tanaka", false),
        ("ines", "Inês", "Gonçalves", false),
    ]

    /// Seeds the company when it has no employees yet; returns the logins, or nil if data was already there.
    public static func seedIfEmpty(_ database: AppDatabase, today: CalendarDate, bcryptCost: UInt8 = 10) async throws -> [Login]? {
        guard try await database.column(sql: "SELECT COUNT(*) FROM employees") == ["0"] else { return nil }

        // Requests made at the start of the year (so past dates were in the future then), then decided.
        let clock = FixedClock(today: CalendarDate(year: today.year, month: 1, day: 1)!)
        let services = database.services(clock: clock)
        var logins: [Login] = []
        var ids: [String: Int64] = [:]
        for person in people {
            let password = "\(person.username)-demo-2026"
            let hash = try await Passwords.hash(password, cost: bcryptCost)
            let employee = try await services.accounts.addEmployee(NewEmployee(
                username: person.username, name: person.name, surname: person.surname,
                email: "\(person.username)@example.com", isAdmin: person.admin, passwordHash: hash))
            ids[person.username] = employee.id
            logins.append(Login(username: person.username, password: password, isAdmin: person.admin))
        }
        let admin = Actor(employeeID: ids["admin"], name: "admin", isAdmin: true)

        // Engineering's lead approves first and an admin second; Sales's head decides alone.
        for (name, twoStage, approver, members) in [
            ("Engineering", true, "eva", ["alice", "bob", "dmitri", "grace", "hiro"]),
            ("Sales", false, "jose", ["jose", "carmen", "zoe", "farid", "ines"]),
        ] {
            let team = try await services.teams.create(name: name, twoStage: twoStage, by: admin)
            for member in members { _ = try await services.teams.addMember(teamID: team.id, employeeID: ids[member]!, by: admin) }
            _ = try await services.teams.addApprover(teamID: team.id, employeeID: ids[approver]!, by: admin)
            if let index = logins.firstIndex(where: { $0.username == approver }) { logins[index].approves.append(name) }
        }

        for year in [today.year, today.year + 1] {
            for (month, day, name) in [(1, 1, "New Year's Day"), (5, 1, "Labour Day"), (12, 25, "Christmas Day"), (12, 26, "St Stephen's Day")] {
                try await services.company.addPublicHoliday(
                    PublicHoliday(date: CalendarDate(year: year, month: month, day: day)!, name: name), by: admin)
            }
        }

        // A second office with its own public holidays.
        let barcelona = try await services.company.createHolidayCalendar(name: "Barcelona office", by: admin)
        for year in [today.year, today.year + 1] {
            for (month, day, name) in [(1, 1, "New Year's Day"), (6, 24, "Sant Joan"), (9, 11, "Diada"), (12, 25, "Christmas Day")] {
                try await services.company.addPublicHoliday(
                    PublicHoliday(date: CalendarDate(year: year, month: month, day: day)!, name: name), calendarID: barcelona.id, by: admin)
            }
        }
        for username in ["jose", "carmen"] {
            _ = try await services.company.setHolidayCalendar(ofEmployee: ids[username]!, to: barcelona.id, by: admin)
        }

        let service = services.holidays
        func weekday(_ month: Int, _ day: Int, in year: Int = today.year) -> CalendarDate {
            var date = CalendarDate(year: year, month: month, day: day)!
            while date.isoWeekday > 5 { date = date.adding(days: 1)! }
            return date
        }
        /// Creates the request, a week later if its days are all public holidays (the demo must seed on any day).
        func request(_ username: String, _ start: CalendarDate, _ days: Int, _ comment: String) async throws -> Int64 {
            let id = ids[username]!
            let actor = Actor(employeeID: id, name: username, isAdmin: username == "admin")
            var start = start
            for attempt in 0..<4 {
                do {
                    return try await service.createRequest(
                        for: id, start: start, end: start.adding(days: days - 1)!, comment: comment, actor: actor).id
                } catch SGError.invalid(field: "endDate", _) where attempt < 3 {
                    start = start.adding(days: 7)!
                }
            }
            throw SGError.conflict("The demo request for \(username) found no working days.")
        }
        let summer = try await request("alice", weekday(7, 6), 5, "Summer by the sea")
        try await service.perform(.approve, on: summer, by: admin)
        let spring = try await request("jose", weekday(3, 2), 3, "Family visit")
        try await service.perform(.reject, on: spring, by: admin, note: "Quarter-end close; please pick another week")
        let autumn = try await request("zoe", weekday(10, 5), 4, "")
        try await service.perform(.cancel, on: autumn, by: Actor(employeeID: ids["zoe"], name: "zoe", isAdmin: false))
        let adminTrip = try await request("admin", weekday(6, 8), 5, "Conference, then a week off")
        _ = adminTrip

        // Requests from today on, made now.
        clock.set(FixedClock(today: today).now())
        let nextMonday = today.adding(days: (8 - today.isoWeekday) % 7 + 7)!
        let pending1 = try await request("bob", nextMonday, 5, "Ski week")
        _ = pending1
        _ = try await request("carmen", nextMonday.adding(days: 14)!, 3, "Moving house")
        let approved = try await request("eva", nextMonday.adding(days: 21)!, 2, "Long weekend, \"finally\"")
        try await service.perform(.approve, on: approved, by: admin, note: "Enjoy")
        // Passed by Engineering's lead, waiting for an admin's second stage.
        let firstStage = try await request("dmitri", nextMonday.adding(days: 28)!, 3, "Conference in Berlin")
        try await service.perform(.approve, on: firstStage, by: Actor(employeeID: ids["eva"], name: "eva", isAdmin: false))
        let reverted = try await request("grace", nextMonday.adding(days: 7)!, 2, "")
        try await service.perform(.approve, on: reverted, by: admin)
        try await service.perform(.revert, on: reverted, by: admin, note: "Clashes with the release; let's talk")
        // A dentist's morning, and a sick day recorded without approval.
        var dentist = nextMonday.adding(days: 35)!
        for attempt in 0..<7 {
            do {
                _ = try await service.createRequest(
                    for: ids["bob"]!, period: try LeavePeriod(start: dentist, end: dentist, startHalf: .morning, endHalf: .morning),
                    comment: "Dentist", actor: Actor(employeeID: ids["bob"], name: "bob", isAdmin: false))
                break
            } catch SGError.invalid(field: "endDate", _) where attempt < 6 {
                dentist = dentist.adding(days: 1)!
            }
        }
        do {
            _ = try await service.createRequest(
                for: ids["jose"]!, period: try LeavePeriod(start: today, end: today), leaveTypeID: LeaveType.sickID, comment: "",
                actor: Actor(employeeID: ids["jose"], name: "jose", isAdmin: false))
        } catch SGError.invalid(field: "endDate", _) {
            // Today is not a working day: nobody is off sick.
        }
        // A request across New Year, counted in both years.
        let newYearsEve = today < CalendarDate(year: today.year, month: 12, day: 21)! ? today.year : today.year + 1
        _ = try await request("hiro", CalendarDate(year: newYearsEve, month: 12, day: 28)!, 10, "Trip home")

        // Profiles, company details and the board, through the same rules as the API.
        for (username, position, phone) in [
            ("admin", "People & Operations", "+34 910 000 001"), ("alice", "Backend engineer", "+34 600 000 002"),
            ("jose", "Jefe de ventas", nil), ("carmen", "Diseñadora", "+34 600 000 006"), ("ines", "Engenheira de dados", nil),
        ] as [(String, String, String?)] {
            var patch = ProfilePatch()
            patch.position = .set(position)
            if let phone { patch.phone = .set(phone) }
            _ = try await services.people.updateProfile(employeeID: ids[username]!, patch, owned: [], directoryKind: "local")
        }
        var company = CompanyPatch()
        company.name = "Demo Company S.L."
        company.address = .set("Calle de Alcalá 1\n28014 Madrid")
        company.phone = .set("+34 910 000 000")
        company.email = .set("hello@example.com")
        company.website = .set("https://example.com")
        try await services.company.updateCompany(company, by: admin)
        _ = try await services.notices.post(
            NoticeDraft(title: "Welcome to SGEmployee", body: "Request days off here; you will see every decision on this board.", pinned: true),
            by: admin)
        _ = try await services.notices.post(
            NoticeDraft(title: "Fire drill next week", body: "The alarm will sound at 11:00; meet at the front car park.", expiresOn: today.adding(days: 7)),
            by: admin)
        return logins
    }
}
