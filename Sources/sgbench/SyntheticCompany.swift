import Foundation
import GRDB
import SGCore
import SGStore

/// SplitMix64: small, fast, and the same sequence for the same seed on every machine.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A company of many employees with years of holiday requests, generated in memory and written in one
/// transaction. The data obeys the rules a real history would: requests of one employee never overlap,
/// approved plus pending days never exceed an employee-year's allowance, working days are counted (and split
/// by year) as `HolidayService` counts them, and every transition has its event, in time order.
struct SyntheticCompany {
    static let password = "bench-password-2026"
    /// The company's default allowance, in days.
    static let defaultAllowance = 23

    struct Plan {
        var seed: UInt64
        var employees: Int
        var admins: Int
        var requests: Int
        var years: Int
        var now: Date

        var today: CalendarDate { CalendarDate(now, in: .gmt) }
        var firstYear: Int { today.year - years + 1 }
        var lastYear: Int { today.year }
        /// Requests are made before `now`, for days up to four months ahead.
        var horizon: CalendarDate { today.adding(days: 120)! }
        /// A year no seeded request touches: the write mix books days there without meeting old requests.
        var freeYear: Int { lastYear + 2 }
    }

    struct Person {
        var id: Int64
        var username: String
        var name: String
        var surname: String
        var isAdmin: Bool
        var deactivatedAt: Date?
    }

    struct Request {
        var employeeID: Int64
        var start: CalendarDate
        var end: CalendarDate
        var daysByYear: [Int: Int]
        var status: HolidayStatus
        var comment: String
        var createdAt: Date
        var updatedAt: Date
        var decidedBy: String?
        var decidedAt: Date?
        var events: [Event]
    }

    struct Event {
        var from: HolidayStatus?
        var to: HolidayStatus
        var actor: String
        var actorID: Int64
        var at: Date
        var note: String
    }

    struct Summary {
        var inactive = 0
        var byStatus: [String: Int] = [:]
        var acrossNewYear = 0
        var busiestYear = 0
        var requestsInBusiestYear = 0
    }

    struct IssuedToken {
        var employeeID: Int64
        var username: String
        var isAdmin: Bool
        var token: String
    }

    let plan: Plan
    var employees: [Person] = []
    var allowances: [(employeeID: Int64, year: Int, days: Int)] = []
    var publicHolidays: [PublicHoliday] = []
    /// Sorted by creation time: ids are given in this order, as the server gives them.
    var requests: [Request] = []
    var summary = Summary()
    var eventCount: Int { requests.reduce(0) { $0 + $1.events.count } }

    static let givenNames = [
        "Ada", "Alice", "Ana", "Bea", "Bob", "Carmen", "Chen", "Dmitri", "Eva", "Farid", "Grace", "Hiro", "Inês", "Iván",
        "Jamal", "José", "Julia", "Kai", "Laura", "Luis", "María", "Mateo", "Mei", "Nadia", "Noah", "Olga", "Omar",
        "Paula", "Pedro", "Priya", "Rosa", "Sami", "Sofía", "Tomás", "Una", "Valentina", "Wei", "Xavier", "Yara", "Zoë",
    ]
    static let surnames = [
        "Álvarez", "Andersen", "Bauer", "Castro", "Díaz", "Dubois", "Fernández", "García-López", "González", "Haddad",
        "Hopper, Jr.", "Ivanov", "Jensen", "Kowalski", "López", "Martín", "Moreno", "Müller", "Navarro", "Núñez",
        "O'Brien", "Okafor", "Pérez", "Rossi", "Ruiz", "Sánchez-Peña", "Santos", "Schmidt", "Silva", "Tanaka",
        "Torres", "Van der Berg", "Wang", "Yilmaz", "Zhang",
    ]
    static let comments = ["", "", "", "Summer", "Family visit", "Long weekend", "Moving house", "Wedding", "Ski week", "Trip home"]
    static let reasons = ["Quarter-end close", "Too many people off that week", "Release week", "Audit", "Please pick other dates"]

    /// Fixed-date public holidays of a year (a plausible national calendar).
    static func publicHolidays(of year: Int) -> [PublicHoliday] {
        [(1, 1, "New Year's Day"), (1, 6, "Epiphany"), (5, 1, "Labour Day"), (8, 15, "Assumption"),
         (10, 12, "National Day"), (11, 1, "All Saints' Day"), (12, 6, "Constitution Day"), (12, 8, "Immaculate Conception"),
         (12, 25, "Christmas Day"), (12, 26, "St Stephen's Day")]
            .map { PublicHoliday(date: CalendarDate(year: year, month: $0.0, day: $0.1)!, name: $0.2) }
    }

    static func generate(_ plan: Plan) -> SyntheticCompany {
        var company = SyntheticCompany(plan: plan)
        var random = SeededGenerator(seed: plan.seed)
        let now = plan.now

        for year in plan.firstYear...(plan.freeYear + 1) { company.publicHolidays += publicHolidays(of: year) }
        let counter = WorkingDayCounter(week: .mondayToFriday, publicHolidays: Set(company.publicHolidays.map(\.date)))

        for index in 0..<plan.employees {
            let id = Int64(index + 1)
            let isAdmin = index < plan.admins
            let username = isAdmin ? String(format: "admin%02d", index + 1) : String(format: "emp%05d", index + 1)
            // About 1% have left; they keep their history.
            let deactivatedAt: Date? = !isAdmin && Int.random(in: 0..<100, using: &random) == 0
                ? now.addingTimeInterval(-Double(Int.random(in: 1...700, using: &random)) * 86_400) : nil
            if deactivatedAt != nil { company.summary.inactive += 1 }
            company.employees.append(Person(
                id: id, username: username, name: givenNames.randomElement(using: &random)!,
                surname: surnames.randomElement(using: &random)!, isAdmin: isAdmin, deactivatedAt: deactivatedAt))
        }

        let firstDay = CalendarDate.firstOfYear(plan.firstYear)!
        let perEmployee = plan.requests / plan.employees
        let extra = plan.requests % plan.employees
        for person in company.employees {
            // Some employee-years have their own allowance (part-time, seniority, carry-over).
            var allowance: [Int: Int] = [:]
            for year in plan.firstYear...(plan.lastYear + 1) {
                if Int.random(in: 0..<100, using: &random) < 8 {
                    let days = Int.random(in: 12...30, using: &random)
                    allowance[year] = days
                    company.allowances.append((person.id, year, days))
                }
            }
            let lastDay = person.deactivatedAt.map { CalendarDate($0, in: .gmt) } ?? plan.horizon
            let count = perEmployee + (Int(person.id) <= extra ? 1 : 0)
            guard count > 0 else { continue }
            // One request in each slot of the employee's time line, so requests never overlap.
            let span = lastDay.dayNumber - firstDay.dayNumber
            let slot = max(2, span / count)
            var held: [Int: Int] = [:]
            for index in 0..<count {
                let slotStart = firstDay.dayNumber + index * slot
                let length: Int
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<30: length = 1
                case 30..<55: length = Int.random(in: 2...3, using: &random)
                case 55..<80: length = 5
                default: length = Int.random(in: 8...14, using: &random)
                }
                // Room to move the start past a long weekend and still end inside the slot.
                let latestStart = slotStart + max(0, slot - length - 6)
                var start = CalendarDate(dayNumber: Int.random(in: slotStart...latestStart, using: &random))!
                // Start on a working day, as people do.
                while !counter.isWorkingDay(start) { start = start.adding(days: 1)! }
                let end = CalendarDate(dayNumber: min(start.dayNumber + length - 1, slotStart + slot - 1))!
                guard start <= end else { continue }
                let days = counter.halvesByYear(in: LeavePeriod(unchecked: start, end: end, startHalf: .morning, endHalf: .afternoon))
                    .mapValues { $0.halves / 2 }
                guard !days.isEmpty else { continue }

                // Made 1 to 90 days ahead, during working hours; never after now.
                let startInstant = Date(timeIntervalSince1970: Double(start.dayNumber) * 86_400)
                var created = startInstant
                    .addingTimeInterval(-Double(Int.random(in: 1...90, using: &random)) * 86_400)
                    .addingTimeInterval(Double(Int.random(in: (8 * 3600)...(18 * 3600), using: &random)))
                if created > now { created = now.addingTimeInterval(-Double(Int.random(in: 60...(14 * 86_400), using: &random))) }
                if created > startInstant.addingTimeInterval(86_399) { continue }

                var request = Request(
                    employeeID: person.id, start: start, end: end, daysByYear: days, status: .pending,
                    comment: comments.randomElement(using: &random)!, createdAt: created, updatedAt: created,
                    decidedBy: nil, decidedAt: nil, events: [])
                request.events.append(Event(
                    from: nil, to: .pending, actor: person.username, actorID: person.id, at: created, note: request.comment))
                func admin() -> Person {
                    var candidate: Person
                    repeat { candidate = company.employees[Int.random(in: 0..<plan.admins, using: &random)] } while candidate.id == person.id
                    return candidate
                }
                func move(_ to: HolidayStatus, by actor: Person, at: Date, note: String = "") {
                    request.events.append(Event(from: request.status, to: to, actor: actor.username, actorID: actor.id, at: at, note: note))
                    if to == .approved || to == .rejected {
                        request.decidedBy = actor.username
                        request.decidedAt = at
                    }
                    request.status = to
                    request.updatedAt = at
                }

                // Decided hours to days later; what is not decided by now stays pending.
                var at = created.addingTimeInterval(Double(Int.random(in: 1800...(6 * 86_400), using: &random)))
                let fits = days.allSatisfy { year, days in held[year, default: 0] + days <= allowance[year] ?? Self.defaultAllowance }
                if at < now {
                    let roll = Int.random(in: 0..<100, using: &random)
                    if !fits || roll < 8 {
                        move(.rejected, by: admin(), at: at, note: fits ? reasons.randomElement(using: &random)! : "Not enough days left")
                    } else if roll < 20 {
                        move(.cancelled, by: person, at: at, note: "Plans changed")
                    } else {
                        move(.approved, by: admin(), at: at)
                        let later = at.addingTimeInterval(Double(Int.random(in: 3600...(20 * 86_400), using: &random)))
                        let followUp = Int.random(in: 0..<100, using: &random)
                        if later < now && followUp < 6 {
                            // Withdrawn before the first day by the owner, or after it by an admin.
                            if later < startInstant { move(.cancelled, by: person, at: later, note: "Not going after all") } else {
                                move(.cancelled, by: admin(), at: later, note: "Came back early")
                            }
                        } else if later < now && later < startInstant && followUp < 10 {
                            move(.pending, by: admin(), at: later, note: "Clashes with a release; let's talk")
                            let again = later.addingTimeInterval(Double(Int.random(in: 3600...(5 * 86_400), using: &random)))
                            if again < now { move(.approved, by: admin(), at: again, note: "Sorted out") }
                        }
                    }
                } else if !fits {
                    // Not decided yet, and there is no room for it: the owner withdrew it.
                    at = created.addingTimeInterval(600)
                    move(.cancelled, by: person, at: min(at, now), note: "Not enough days left")
                }
                if request.status.holdsDays {
                    for (year, count) in days { held[year, default: 0] += count }
                }
                company.requests.append(request)
            }
        }
        company.requests.sort { ($0.createdAt, $0.employeeID) < ($1.createdAt, $1.employeeID) }

        var perYear: [Int: Int] = [:]
        for request in company.requests {
            company.summary.byStatus[request.status.rawValue, default: 0] += 1
            if request.start.year != request.end.year { company.summary.acrossNewYear += 1 }
            for year in request.start.year...request.end.year { perYear[year, default: 0] += 1 }
        }
        if let busiest = perYear.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) }) {
            company.summary.busiestYear = busiest.key
            company.summary.requestsInBusiestYear = busiest.value
        }
        return company
    }

    /// Writes everything in one transaction with prepared statements, and issues a token to every active employee.
    func write(to store: AppDatabase, passwordHash: String) throws -> [IssuedToken] {
        let now = plan.now
        let stamp = Timestamp.format(now)
        var issued: [IssuedToken] = []
        try store.writer.writeWithoutTransaction { db in
            // One big transaction: keep every page it touches in memory, so none is spilled to the WAL twice.
            try db.execute(sql: "PRAGMA cache_size = -1048576")
            try db.inTransaction(.immediate) {
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM employees") ?? 0
                guard count == 0 else { throw SGError.conflict("The database already has employees.") }
                try db.execute(sql: "UPDATE company SET name = 'Bench Company S.A.', default_allowance = ? WHERE id = 1", arguments: [Self.defaultAllowance])

                let employee = try db.makeStatement(sql: """
                    INSERT INTO employees
                        (id, username, name, surname, email, is_admin, is_active, password_hash, created_at, deactivated_at, search_text, sort_key)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                // One session per active employee (its id is theirs), holding a week-long access token and no refresh token.
                let session = try db.makeStatement(
                    sql: "INSERT INTO sessions (id, employee_id, created_at, last_used_at, expires_at) VALUES (?1, ?1, ?2, ?2, ?3)")
                let token = try db.makeStatement(
                    sql: "INSERT INTO auth_tokens (token_hash, employee_id, created_at, expires_at, session_id) VALUES (?1, ?2, ?3, ?4, ?2)")
                let created = Timestamp.format(Date(timeIntervalSince1970: Double(CalendarDate.firstOfYear(plan.firstYear)!.dayNumber - 30) * 86_400))
                let expires = Timestamp.format(now.addingTimeInterval(7 * 86_400))
                for person in employees {
                    let email = "\(person.username)@bench.example"
                    // Folded as the services fold every employee they add, so that no first read has them to fold.
                    let folded = FoldedCopies.copies(of: FoldingSource(
                        employeeID: person.id, username: person.username, name: person.name, surname: person.surname, email: email,
                        position: nil))
                    try employee.execute(arguments: [
                        person.id, person.username, person.name, person.surname, email, person.isAdmin, person.deactivatedAt == nil,
                        passwordHash, created, person.deactivatedAt.map(Timestamp.format), folded.searchText, folded.sortKey,
                    ])
                    guard person.deactivatedAt == nil else { continue }
                    let (value, digest) = SessionService.makeToken()
                    try session.execute(arguments: [person.id, stamp, expires])
                    try token.execute(arguments: [digest, person.id, stamp, expires])
                    issued.append(IssuedToken(employeeID: person.id, username: person.username, isAdmin: person.isAdmin, token: value))
                }

                let holiday = try db.makeStatement(sql: "INSERT INTO public_holidays (date, name) VALUES (?, ?)")
                for day in publicHolidays { try holiday.execute(arguments: [day.date.description, day.name]) }
                let allowance = try db.makeStatement(sql: "INSERT INTO allowances (employee_id, year, days) VALUES (?, ?, ?)")
                for row in allowances { try allowance.execute(arguments: [row.employeeID, row.year, row.days]) }

                let request = try db.makeStatement(sql: """
                    INSERT INTO holiday_requests
                        (id, employee_id, start_date, end_date, halves, status, comment, created_at, updated_at, decided_by, decided_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                let days = try db.makeStatement(
                    sql: "INSERT INTO holiday_request_days (request_id, employee_id, year, leave_type_id, halves) VALUES (?, ?, ?, 1, ?)")
                var events: [(requestID: Int64, event: Event)] = []
                events.reserveCapacity(requests.count * 2)
                for (index, item) in requests.enumerated() {
                    let id = Int64(index + 1)
                    try request.execute(arguments: [
                        id, item.employeeID, item.start.description, item.end.description, 2 * item.daysByYear.values.reduce(0, +),
                        item.status.rawValue, item.comment, Timestamp.format(item.createdAt), Timestamp.format(item.updatedAt),
                        item.decidedBy, item.decidedAt.map(Timestamp.format),
                    ])
                    for (year, count) in item.daysByYear.sorted(by: { $0.key < $1.key }) {
                        try days.execute(arguments: [id, item.employeeID, year, 2 * count])
                    }
                    for event in item.events { events.append((id, event)) }
                }
                // Event ids follow time, as they would have been appended.
                events.sort { ($0.event.at, $0.requestID) < ($1.event.at, $1.requestID) }
                let event = try db.makeStatement(sql: """
                    INSERT INTO holiday_events (request_id, from_status, to_status, actor, actor_employee_id, at, note)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
                for (requestID, item) in events {
                    try event.execute(arguments: [
                        requestID, item.from?.rawValue, item.to.rawValue, item.actor, item.actorID, Timestamp.format(item.at), item.note,
                    ])
                }
                return .commit
            }
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute(sql: "PRAGMA cache_size = -2000")
        }
        return issued
    }
}
