import ArgumentParser
import Foundation
import SGCore
import SGSettings

struct AllowanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allowance", abstract: "Read and set holiday allowances, adjust them, read their history.",
        subcommands: [Set.self, Show.self, Adjust.self, Log.self, Default.self])

    static func summary(_ username: String, _ balance: Balance) -> String {
        "\(username) \(balance.year): allowance \(balance.allowance), carried over \(balance.carriedOver), expired \(balance.expired), "
            + "adjusted \(balance.adjusted), approved \(balance.approved), pending \(balance.pending), remaining \(balance.remaining)\n"
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set one employee's allowance for one year.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Argument(help: "Year.") var year: Int
        @Argument(help: "Working days.") var days: Int

        func run() async throws {
            try await running {
                let services = try global.services()
                let employee = try await findEmployee(services, username)
                let actor = try await global.actor(services)
                let balance = try await services.holidays.setAllowance(
                    employeeID: employee.id, year: year, days: days, by: actor)
                printOut(AllowanceCommand.summary(employee.username, balance))
            }
        }
    }

    struct Adjust: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "adjust",
            abstract: "Add days to an employee's year, or remove them (negative), with a reason the employee reads.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Argument(help: "Year.") var year: Int
        @Argument(help: "Days in steps of 0.5: +2, -1.5 (write -- before a negative number).") var days: String
        @Option(help: "Why (required).") var reason: String

        func run() async throws {
            try await running {
                guard let days = HalfDays(days: days) else {
                    throw SGError.invalid(field: "days", message: "'\(self.days)' is not a number of days in steps of 0.5, such as +2 or -1.5")
                }
                let services = try global.services()
                let employee = try await findEmployee(services, username)
                let (change, balance) = try await services.holidays.adjustAllowance(
                    employeeID: employee.id, year: year, days: days, reason: reason, by: try await global.actor(services))
                printOut("Adjustment \(change.id) recorded.\n" + AllowanceCommand.summary(employee.username, balance))
            }
        }
    }

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log", abstract: "An employee's allowance history: allowances set and adjustments.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Option(help: "Only this year [default: every year].") var year: Int?
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run() async throws {
            try await running {
                let services = try global.services()
                let employee = try await findEmployee(services, username)
                let changes = try await services.holidays.allowanceChanges(
                    employeeID: employee.id, year: year, by: try await global.actor(services))
                Output(
                    columns: ["id", "year", "kind", "days", "reason", "by", "at"],
                    rows: changes.map { change in
                        [.number(Int(change.id)), .number(change.year), .text(change.kind.rawValue), .days(change.days),
                         .text(change.reason), .text(change.actor), .text(Timestamp.format(change.at))]
                    }
                ).print(format)
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show an employee's balance for a year.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Option(help: "Year [default: this year].") var year: Int?
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run() async throws {
            try await running {
                let services = try global.services()
                let employee = try await findEmployee(services, username)
                let year = try await services.company.year(self.year)
                let balance = try await services.holidays.balance(employeeID: employee.id, year: year)
                Output(
                    columns: [
                        "username", "year", "allowance", "carried_over", "expired", "carry_over_expires_on", "adjusted", "approved",
                        "pending", "remaining",
                    ],
                    rows: [[.text(employee.username), .number(year), .days(balance.allowance), .days(balance.carriedOver),
                            .days(balance.expired), .text(balance.carryOverExpiresOn?.description ?? ""), .days(balance.adjusted),
                            .days(balance.approved), .days(balance.pending), .days(balance.remaining)]]
                ).print(format)
            }
        }
    }

    struct Default: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "default", abstract: "Set the company's default allowance (working days a year).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Working days.") var days: Int

        func run() async throws {
            try await running {
                let services = try global.services()
                try await services.company.setDefaultAllowance(days, by: try await global.actor(services))
                printOut("Default allowance is now \(days) working days.\n")
            }
        }
    }
}

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage local accounts and employees' working weeks.",
        subcommands: [
            Add.self, List.self, Change.self, Admin.self, Deactivate.self, Reactivate.self, Password.self, WorkingWeekCommand.self, WorkingWeeks.self, HolidayCalendarCommand.self,
        ])

    struct HolidayCalendarCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "holiday-calendar",
            abstract: "Show the holiday calendar an employee belongs to, or move them to another (id or name).",
            discussion: "Requests already made keep the working days they were counted with.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Argument(help: "The calendar to move them to (id or name); leave out to show theirs.") var calendar: String?

        func run() async throws {
            try await running {
                let services = try global.services()
                let employee = try await findEmployee(services, username)
                let actor = try await global.actor(services)
                if let calendar {
                    let target = try await services.company.holidayCalendar(calendar)
                    _ = try await services.company.setHolidayCalendar(ofEmployee: employee.id, to: target.id, by: actor)
                    printOut("\(employee.username) now belongs to holiday calendar \(target.id) (\(target.name)).\n")
                } else {
                    let current = try await services.company.holidayCalendar(ofEmployee: employee.id, by: actor)
                    printOut("\(employee.username) belongs to holiday calendar \(current.id) (\(current.name)).\n")
                }
            }
        }
    }

    struct WorkingWeekCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "working-week",
            abstract: "Set an employee's own working week (part time) from a day on; `company` goes back to the company's.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Argument(help: "ISO weekday digits, 1 = Monday ... 7 = Sunday (e.g. 1234), or company.") var week: String
        @Option(help: "The first day of the new week (YYYY-MM-DD, today or later).") var from: String

        func run() async throws {
            try await running {
                let startsOn = try CalendarDate.parse(from, field: "--from")
                let parsed = week == "company" ? nil : try CompanyRules.workingWeek(code: week, field: "week")
                let services = try global.services()
                let employee = try await findEmployee(services, username)
                _ = try await services.holidays.setWorkingWeek(
                    employeeID: employee.id, from: startsOn, week: parsed, by: try await global.actor(services))
                printOut("\(employee.username) works \(parsed?.description ?? "the company's week") from \(startsOn).\n")
            }
        }
    }

    struct WorkingWeeks: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "working-weeks", abstract: "An employee's working weeks, each from the day it starts.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run() async throws {
            try await running {
                let services = try global.services()
                let employee = try await findEmployee(services, username)
                let weeks = try await services.holidays.workingWeeks(employeeID: employee.id, by: try await global.actor(services))
                Output(
                    columns: ["starts_on", "working_week", "set_by", "set_at"],
                    rows: weeks.changes.map { change in
                        [.text(change.startsOn.description), .text(change.week?.code ?? "company (\(weeks.company.code))"),
                         .text(change.setBy), .text(Timestamp.format(change.setAt))]
                    }
                ).print(format)
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a local account. The password is read from standard input, never from the command line.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Option(help: "Given name.") var name: String
        @Option(help: "Surname.") var surname: String
        @Option(help: "E-mail address.") var email: String
        @Flag(help: "Make the account an admin.") var admin = false
        @Flag(help: "Read the password from standard input (one line).") var passwordStdin = false
        @OptionGroup(title: "LDAP directory (with SG_DIRECTORY=ldap)") var ldap: LDAPOptions

        func run() async throws {
            try await running {
                guard passwordStdin else {
                    throw SGError.invalid(field: "--password-stdin", message: "a local account needs a password: pipe it in with --password-stdin")
                }
                let password = try readPasswordLine()
                let services = try global.services()
                let employee = try await services.accounts.addLocalAccount(
                    NewEmployee(username: username, name: name, surname: surname, email: email, isAdmin: admin, passwordHash: nil),
                    password: password, passwords: services.passwords, directory: try ldap.loginDirectory(services),
                    by: try await global.actor(services))
                printOut("Added \(employee.username) (id \(employee.id))\(employee.isAdmin ? " as an admin" : "").\n")
            }
        }
    }

    struct Password: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "password",
            abstract: "Set a local account's password, read from standard input; the employee's sessions end.",
            discussion: """
                The password obeys the same rules as everywhere: at least 10 characters, at most 256 bytes, not the \
                username, no NUL. Accounts of the company directory (LDAP) keep their password there and are refused \
                (with SG_LDAP_PASSWORD_URL named, when set).
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Flag(help: "Read the password from standard input (one line).") var passwordStdin = false

        func run() async throws {
            try await running {
                guard passwordStdin else {
                    throw SGError.invalid(field: "--password-stdin", message: "pipe the new password in with --password-stdin")
                }
                let password = try readPasswordLine()
                let services = try global.services()
                // The directory's page, for the refusal of a directory account; a bad value is the server's to report.
                var settings = SettingsResolver(flags: [:], environment: ProcessInfo.processInfo.environment)
                let passwords = PasswordService(
                    store: services.passwords.store, hasher: services.passwords.hasher, clock: services.passwords.clock,
                    passwordPage: settings.ldapPasswordURL())
                let employee = try await passwords.setPassword(username: username, to: password)
                printOut("Set the password of \(employee.username); their sessions are ended.\n")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List employees.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run() async throws {
            try await running {
                let services = try global.services()
                let employees = try await services.accounts.employees()
                Output(
                    columns: ["id", "username", "name", "surname", "email", "admin", "active"],
                    rows: employees.map {
                        [.number(Int($0.id)), .text($0.username), .text($0.name), .text($0.surname), .text($0.email),
                         .text($0.isAdmin ? "yes" : "no"), .text($0.isActive ? "yes" : "no")]
                    }
                ).print(format)
            }
        }
    }

    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change an employee's name, surname, e-mail, position or phone, all at once or none.",
            discussion: "An empty value clears the position or the phone. Fields the company directory holds are refused.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Option(help: "Given name.") var name: String?
        @Option(help: "Surname.") var surname: String?
        @Option(help: "E-mail address.") var email: String?
        @Option(help: "Position (job title).") var position: String?
        @Option(help: "Phone number.") var phone: String?
        @OptionGroup(title: "LDAP directory (with SG_DIRECTORY=ldap)") var ldap: LDAPOptions

        func run() async throws {
            try await running {
                var change = EmployeeChange()
                func set(_ value: String?) -> SGCore.Change<String> { value.map(SGCore.Change.set) ?? .keep }
                change.profile.name = set(name)
                change.profile.surname = set(surname)
                change.profile.email = set(email)
                change.profile.position = set(position)
                change.profile.phone = set(phone)
                guard change != EmployeeChange() else {
                    throw SGError.invalid(field: "options", message: "nothing to change: give at least one option (see --help)")
                }
                let profile = try await update(global, ldap, username, change)
                printOut("Updated \(profile.employee.username): \(profile.employee.fullName) <\(profile.employee.email)>"
                    + ", position \(profile.position ?? "none"), phone \(profile.phone ?? "none").\n")
            }
        }
    }

    struct Admin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "admin",
            abstract: "Make an employee an admin (--grant) or no longer one (--revoke); the last active admin stays one.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Flag(exclusivity: .exclusive, help: "Grant or revoke the admin role.") var role: Role
        @OptionGroup(title: "LDAP directory (with SG_DIRECTORY=ldap)") var ldap: LDAPOptions

        enum Role: String, EnumerableFlag { case grant, revoke }

        func run() async throws {
            try await running {
                let profile = try await update(global, ldap, username, EmployeeChange(isAdmin: role == .grant))
                printOut("\(profile.employee.username) is \(profile.employee.isAdmin ? "now an admin" : "no longer an admin").\n")
            }
        }
    }

    struct Reactivate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reactivate",
            abstract: "Reactivate a deactivated account: they can log in again.",
            discussion: "An employee of the company directory comes back only while the directory still lists them.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @OptionGroup(title: "LDAP directory (with SG_DIRECTORY=ldap)") var ldap: LDAPOptions

        func run() async throws {
            try await running {
                let services = try global.services()
                let employee = try await findEmployee(services, username)
                guard !employee.isActive else { throw SGError.conflict("\(employee.username) is active.") }
                _ = try await update(global, ldap, username, EmployeeChange(isActive: true))
                printOut("Reactivated \(employee.username); they can log in again.\n")
            }
        }
    }

    /// An admin's change through the same rules as `PATCH /v1/employees/{id}`.
    static func update(_ global: GlobalOptions, _ ldap: LDAPOptions, _ username: String, _ change: EmployeeChange) async throws -> Profile {
        let services = try global.services()
        let employee = try await findEmployee(services, username)
        return try await services.accounts.update(
            employeeID: employee.id, change, by: try await global.actor(services), directory: try ldap.loginDirectory(services))
    }

    struct Deactivate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "deactivate", abstract: "Deactivate an account: history is kept, login is refused.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String

        func run() async throws {
            try await running {
                let services = try global.services()
                let employee = try await services.accounts.deactivate(username: username)
                printOut("Deactivated \(employee.username); their tokens are revoked.\n")
            }
        }
    }
}

/// One line of standard input, without its line break: a password piped in (`--password-stdin`).
func readPasswordLine() throws -> String {
    guard var line = readLine(strippingNewline: true) else {
        throw SGError.invalid(field: "password", message: "nothing on standard input: pipe the password in, one line")
    }
    if line.hasSuffix("\r") { line.removeLast() }
    return line
}

struct HolidaysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "holidays", abstract: "Manage the company's public holidays and their calendars (per office or region).",
        subcommands: [Add.self, Remove.self, List.self, Calendar.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a public holiday. Requests already made keep the working days counted when they were made.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The date, YYYY-MM-DD.") var date: String
        @Argument(help: "Its name.") var name: String
        @Option(help: "The holiday calendar (id or name); default: the first.") var calendar: String?

        func run() async throws {
            try await running {
                let day = try CalendarDate.parse(date, field: "date")
                let services = try global.services()
                let target = try await services.company.holidayCalendar(calendar ?? String(HolidayCalendar.defaultID))
                try await services.company.addPublicHoliday(
                    PublicHoliday(date: day, name: name), calendarID: target.id, by: try await global.actor(services))
                printOut("\(day) is now a public holiday in \(target.name): \(name).\n")
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Remove a public holiday. Requests already made keep the working days counted when they were made.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The date, YYYY-MM-DD.") var date: String
        @Option(help: "The holiday calendar (id or name); default: the first.") var calendar: String?

        func run() async throws {
            try await running {
                let day = try CalendarDate.parse(date, field: "date")
                let services = try global.services()
                let target = try await services.company.holidayCalendar(calendar ?? String(HolidayCalendar.defaultID))
                let removed = try await services.company.removePublicHoliday(
                    date: day, calendarID: target.id, by: try await global.actor(services))
                printOut("\(day) (\(removed.name)) is no longer a public holiday in \(target.name).\n")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List public holidays.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "Only this year.") var year: Int?
        @Option(help: "The holiday calendar (id or name); default: the first.") var calendar: String?
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run() async throws {
            try await running {
                if let year { try HolidayService.checkYear(year) }
                let services = try global.services()
                let target = try await services.company.holidayCalendar(calendar ?? String(HolidayCalendar.defaultID))
                let holidays = try await services.company.publicHolidays(year: year, calendarID: target.id)
                Output(columns: ["date", "name"], rows: holidays.map { [.text($0.date.description), .text($0.name)] }).print(format)
            }
        }
    }

    struct Calendar: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "calendar",
            abstract: "Manage holiday calendars; `sgadmin user holiday-calendar` says who belongs to which.",
            subcommands: [CalendarList.self, CalendarAdd.self, CalendarRename.self, CalendarRemove.self])
    }

    struct CalendarList: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List holiday calendars.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run() async throws {
            try await running {
                let calendars = try await global.services().company.holidayCalendars()
                Output(
                    columns: ["id", "name", "employees"],
                    rows: calendars.map { [.number(Int($0.id)), .text($0.name), .number($0.employeeCount)] }
                ).print(format)
            }
        }
    }

    struct CalendarAdd: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an empty holiday calendar.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Its name.") var name: String

        func run() async throws {
            try await running {
                let services = try global.services()
                let created = try await services.company.createHolidayCalendar(name: name, by: try await global.actor(services))
                printOut("Holiday calendar \(created.id) (\(created.name)) added.\n")
            }
        }
    }

    struct CalendarRename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a holiday calendar.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The calendar (id or name).") var calendar: String
        @Argument(help: "Its new name.") var name: String

        func run() async throws {
            try await running {
                let services = try global.services()
                let target = try await services.company.holidayCalendar(calendar)
                let renamed = try await services.company.renameHolidayCalendar(id: target.id, to: name, by: try await global.actor(services))
                printOut("Holiday calendar \(renamed.id) is now \(renamed.name).\n")
            }
        }
    }

    struct CalendarRemove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a holiday calendar no employee belongs to, with its public holidays.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The calendar (id or name).") var calendar: String

        func run() async throws {
            try await running {
                let services = try global.services()
                let target = try await services.company.holidayCalendar(calendar)
                try await services.company.deleteHolidayCalendar(id: target.id, by: try await global.actor(services))
                printOut("Holiday calendar \(target.id) (\(target.name)) removed.\n")
            }
        }
    }
}

struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Create the database or bring its schema up to date.")
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await running {
            printOut("Schema up to date at \(try global.location.shown): \(try global.migrate().joined(separator: ", ")).\n")
        }
    }
}

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "HR's CSV for a year: one row per request, or with --balances one row per employee.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "The year.") var year: Int
    @Flag(help: "One row per employee with allowance, approved, pending and remaining.") var balances = false
    @Option(help: "Write to this file (replaced whole, never half-written) instead of standard output.") var output: String?

    func run() async throws {
        try await running {
            let services = try global.services()
            let actor = try await global.actor(services)
            try HolidayService.checkReport(year: year, by: actor)
            // Rows are written as they are read, so a year of a large company never sits in memory at once. A file
            // is written beside the target and renamed over it, so a reader never sees half a file.
            let temporary = output.map { $0 + ".partial-\(ProcessInfo.processInfo.processIdentifier)" }
            do {
                // Created here, so that a failure to open the file is reported as itself and leaves nothing behind.
                let sink = try temporary.map(OutputSink.init(creatingFileAt:)) ?? OutputSink(FileHandle.standardOutput)
                try await write(services.holidays, by: actor, to: sink)
                try sink.close()
            } catch {
                if let temporary { try? FileManager.default.removeItem(atPath: temporary) }
                if error is SGError { throw error }
                throw SGError.conflict("Could not write \(output ?? "the export"): \(error.localizedDescription)")
            }
            if let output, let temporary {
                // rename(2) replaces the target atomically.
                guard rename(temporary, output) == 0 else {
                    let reason = String(cString: strerror(errno))
                    try? FileManager.default.removeItem(atPath: temporary)
                    throw SGError.conflict("Could not write \(output): \(reason)")
                }
            }
        }
    }

    private func write(_ holidays: HolidayService, by actor: Actor, to sink: OutputSink) async throws {
        if balances {
            try sink.write(HolidayReportLayout.balanceColumns.map(CSV.Cell.text))
            for (employee, balance) in try await holidays.balances(year: year, by: actor) {
                try sink.write(HolidayReportLayout.balanceCells(employee, balance, year: year))
            }
        } else {
            try sink.write(HolidayReportLayout.requestColumns.map(CSV.Cell.text))
            try await holidays.export(year: year, by: actor) { row in
                try sink.write(HolidayReportLayout.requestCells(row))
            }
        }
    }
}

/// Buffered CSV records to a file or standard output, flushed every 256 KiB.
/// Used by one command at a time; the export hands it rows from the store's read, which waits for it.
final class OutputSink: @unchecked Sendable {
    private let handle: FileHandle
    private let ownsHandle: Bool
    private var buffer: [UInt8] = []

    init(_ handle: FileHandle) {
        self.handle = handle
        self.ownsHandle = false
        buffer.reserveCapacity(Self.flushSize)
    }

    /// Creates (or empties) the file at `path`.
    init(creatingFileAt path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw SGError.conflict("Could not create \(path): \(String(cString: strerror(errno)))")
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        ownsHandle = true
        buffer.reserveCapacity(Self.flushSize)
    }

    private static let flushSize = 256 * 1024

    /// One CSV record.
    func write(_ cells: [CSV.Cell]) throws {
        CSV.append(cells, to: &buffer)
        if buffer.count >= Self.flushSize { try flush() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        if ownsHandle { try handle.close() }
    }
}