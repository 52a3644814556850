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
    public let service: HolidayService
    public let admin: Employee
    public let secondAdmin: Employee
    public let alice: Employee
    public let bob: Employee

    /// An in-memory database (or the file at `path`) with admin, admin2, alice and bob, all with `password`.
    public static func make(path: String? = nil, today: CalendarDate = Fixture.today) async throws -> Fixture {
        let database = try path.map { try AppDatabase.open(path: $0) } ?? AppDatabase.inMemory()
        let hash = try await Passwords.hash(password, cost: 4)
        func add(_ username: String, _ name: String, _ surname: String, admin: Bool) async throws -> Employee {
            try await database.addEmployee(NewEmployee(
                username: username, name: name, surname: surname, email: "\(username)@example.com", isAdmin: admin,
                passwordHash: hash))
        }
        let clock = FixedClock(today: today)
        return Fixture(
            database: database, today: today, clock: clock, service: HolidayService(store: database, clock: clock),
            admin: try await add("admin", "Ada", "Admin", admin: true),
            secondAdmin: try await add("admin2", "Bea", "Boss", admin: true),
            alice: try await add("alice", "Alice", "Example", admin: false),
            bob: try await add("bob", "José", "Núñez, \"Pepe\"", admin: false))
    }

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
        try await database.read { (db: Database) in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? 0 }
    }

    public func sessions() -> Sessions {
        Sessions(database: database, directory: LocalAccountDirectory(database: database, cost: 4), clock: clock)
    }
}

/// A unique temporary file path for a database, removed with its WAL files by `cleanUp`.
public struct TemporaryDatabasePath: Sendable {
    public let path: String

    public init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("sg-test-\(UUID().uuidString).sqlite").path
    }

    public func cleanUp() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
