import Foundation
import SGCore
import SGStore
import GRDB

/// A company on a database of the caller's choice, with the clock at a fixed day, and a few employees.
public struct Fixture: Sendable {
    public static let today = CalendarDate(year: 2026, month: 3, day: 2)!  // a Monday
    public static let password = "correct-horse-9"

    public let database: AppDatabase
    /// The day the fixture's clock stands on.
    public let today: CalendarDate
    public let clock: FixedClock
    /// The core's services over `database`, on `clock`.
    public let services: CoreServices
    public var service: HolidayService { services.holidays }
    public let admin: Employee
    public let secondAdmin: Employee
    public let alice: Employee
    public let bob: Employee

    /// A new database of the engine under test (`TestEngine`), or the one at `path`, with admin, admin2, alice and
    /// bob, all with `password`.
    public static func make(path: String? = nil, today: CalendarDate = Fixture.today) async throws -> Fixture {
        try await make(on: try path.map { try TestEngine.open(path: $0) } ?? TestEngine.newDatabase(), today: today)
    }

    /// The fixture's employees on `database`, which must be empty.
    public static func make(on database: AppDatabase, today: CalendarDate = Fixture.today) async throws -> Fixture {
        let hash = try await Passwords.hash(password, cost: 4)
        let clock = FixedClock(today: today)
        let services = database.services(clock: clock)
        func add(_ username: String, _ name: String, _ surname: String, admin: Bool) async throws -> Employee {
            try await services.accounts.addEmployee(NewEmployee(
                username: username, name: name, surname: surname, email: "\(username)@example.com", isAdmin: admin,
                passwordHash: hash))
        }
        return Fixture(
            database: database, today: today, clock: clock, services: services,
            admin: try await add("admin", "Ada", "Admin", admin: true),
            secondAdmin: try await add("admin2", "Bea", "Boss", admin: true),
            alice: try await add("alice", "Alice", "Example", admin: false),
            bob: try await add("bob", "José", "Núñez, \"Pepe\"", admin: false))
    }

    /// An operator of `sgadmin` who is not an employee: acts as an admin.
    public static let operatorActor = Actor(employeeID: nil, name: "tests (sgadmin)", isAdmin: true)

    /// A date relative to `today`.
    public func day(_ offset: Int) -> CalendarDate { today.adding(days: offset)! }

    /// The first Monday-to-Friday day at least `offset` days from `today`.
    public func weekday(_ offset: Int) -> CalendarDate {
        var date = day(offset)
        while date.isoWeekday > 5 { date = date.adding(days: 1)! }
        return date
    }

    public static func date(_ text: String) -> CalendarDate { CalendarDate(iso: text)! }

    /// Counts rows, for "nothing was written" checks.
    public func count(_ table: String) async throws -> Int {
        let count = try await database.column(sql: "SELECT COUNT(*) FROM \(table)").first ?? nil
        return Int(count ?? "") ?? 0
    }

    /// Logins checked against the fixture's local accounts (bcrypt at its cheapest cost).
    public var localAccounts: LocalAccountDirectory { LocalAccountDirectory(accounts: database.accountStore, cost: 4) }

    public func sessions(directory: (any EmployeeDirectory)? = nil) -> SessionService {
        services.sessions(store: database.sessionStore, directory: directory ?? localAccounts)
    }
}

/// A unique temporary file path for a database, removed with its WAL files by `cleanUp`.
public struct TemporaryDatabasePath: Sendable {
    public let path: String

    public init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("sg-test-\(UUID().uuidString).sqlite").path
    }

    public func cleanUp() {
        for suffix in ["", "-wal", "-shm", "-server.lock"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

extension AppDatabase {
    /// Logins checked by `directory` over this database's accounts.
    public func sessions(
        directory: any EmployeeDirectory, clock: any NowProvider = SystemClock(), throttle: LoginThrottle? = nil
    ) -> SessionService {
        services(clock: clock).sessions(store: sessionStore, directory: directory, throttle: throttle)
    }
}

extension DestinationPolicy {
    /// The stand-in servers of the tests listen on 127.0.0.1, an internal address the server refuses unless allowed.
    public static let testServers = try! DestinationPolicy(parsing: "127.0.0.1")
}
