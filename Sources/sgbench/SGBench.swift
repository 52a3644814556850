import ArgumentParser
import Foundation
import SGCore
import SGSQLite
import SGStore

/// `sgbench`: tools for `make bench`. Not installed with the product: it writes synthetic companies straight into
/// a fresh database, which only a benchmark should ever do.
@main
struct SGBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sgbench",
        abstract: "Benchmark tools for SGEmployee (used by `make bench`).",
        subcommands: [Seed.self, Writes.self])
}

struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a synthetic company in a new database file.",
        discussion: """
            The same --seed and --today give the same company (employees, allowances, public holidays, requests and \
            their histories). Every employee-year holds at most its allowance in approved plus pending days, an \
            employee's requests never overlap, and every transition has its event. Bearer tokens for every active \
            employee are issued directly (they are random on each run) and written to --tokens for the load generator.
            """)

    @Option(help: "The database file to create; it must not exist.") var database: String
    @Option(help: "Where to write the tokens (tab-separated: employee id, username, admin 0/1, token).") var tokens: String
    @Option(help: "Where to write the working days of the free year, which no seeded request touches (YYYY-MM-DD a line).")
    var freeDays: String?
    @Option(help: "Random seed.") var seed: UInt64 = 42
    @Option(help: "Employees.") var employees: Int = 10_000
    @Option(help: "Admins among the employees.") var admins: Int = 20
    @Option(help: "Holiday requests in all.") var requests: Int = 300_000
    @Option(help: "Calendar years of history, ending with this year.") var years: Int = 5
    @Option(help: "Today, YYYY-MM-DD [default: today in UTC].") var today: String?
    @Option(help: ArgumentHelp("bcrypt cost of the one password every synthetic account shares.", visibility: .hidden))
    var bcryptCost: UInt8 = 12

    func validate() throws {
        guard employees > admins, admins >= 2 else { throw ValidationError("need at least 2 admins and more employees than admins") }
        guard requests >= 0, years >= 1 else { throw ValidationError("--requests and --years must be positive") }
        if let today, CalendarDate(iso: today) == nil { throw ValidationError("--today must be YYYY-MM-DD") }
    }

    func run() async throws {
        SQLiteLibrary.configureForThisProcess()
        guard !FileManager.default.fileExists(atPath: database) else {
            throw ValidationError("\(database) exists; the benchmark seeds a new file only")
        }
        // "Now" is the start of the day (UTC), so that one seed gives one company all day long.
        let day = today.flatMap(CalendarDate.init(iso:)) ?? CalendarDate(Date(), in: .gmt)
        let now = Date(timeIntervalSince1970: Double(day.dayNumber) * 86_400)
        let plan = SyntheticCompany.Plan(
            seed: seed, employees: employees, admins: admins, requests: requests, years: years, now: now)
        let started = Date()
        let company = SyntheticCompany.generate(plan)
        let generated = Date()
        let store = try AppDatabase.open(path: database, schema: .migrate)
        let passwordHash = try await Passwords.hash(SyntheticCompany.password, cost: bcryptCost)
        let issued = try company.write(to: store, passwordHash: passwordHash)
        let written = Date()

        var lines = ""
        for token in issued {
            lines += "\(token.employeeID)\t\(token.username)\t\(token.isAdmin ? 1 : 0)\t\(token.token)\n"
        }
        try Data(lines.utf8).write(to: URL(fileURLWithPath: tokens))
        if let freeDays {
            // Counted as the server counts them: the company's week without its public holidays.
            let counter = WorkingDayCounter(week: .mondayToFriday, publicHolidays: Set(company.publicHolidays.map(\.date)))
            let first = CalendarDate.firstOfYear(plan.freeYear)!, last = CalendarDate.lastOfYear(plan.freeYear)!
            let days = (first.dayNumber...last.dayNumber).compactMap(CalendarDate.init(dayNumber:)).filter(counter.isWorkingDay)
            try Data(days.map { "\($0)\n" }.joined().utf8).write(to: URL(fileURLWithPath: freeDays))
        }

        let summary = company.summary
        print("""
            Seeded \(database) (seed \(seed), today \(CalendarDate(now, in: .gmt))):
              employees \(company.employees.count) (admins \(admins), inactive \(summary.inactive)), \
            allowance overrides \(company.allowances.count), public holidays \(company.publicHolidays.count)
              requests \(company.requests.count): \(summary.byStatus.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); \
            across New Year \(summary.acrossNewYear); events \(company.eventCount)
              busiest year \(summary.busiestYear) (\(summary.requestsInBusiestYear) requests); years \(plan.firstYear)...\(plan.lastYear); \
            free year for new requests \(plan.freeYear)
              tokens \(issued.count) -> \(tokens)
              generated in \(String(format: "%.1f", generated.timeIntervalSince(started))) s, \
            written in \(String(format: "%.1f", written.timeIntervalSince(generated))) s
            """)
    }
}
