import ArgumentParser
import Foundation
import SGCore
import SGSettings

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage local accounts and employees' working weeks.",
        subcommands: [
            Add.self, List.self, Change.self, Admin.self, Deactivate.self, Reactivate.self, Password.self, WorkingWeekCommand.self, WorkingWeeks.self, HolidayCalendarCommand.self,
        ])

    struct HolidayCalendarCommand: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "holiday-calendar",
            abstract: "Show the holiday calendar an employee belongs to, or move them to another (id or name).",
            discussion: "Requests already made keep the working days they were counted with.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Argument(help: "The calendar to move them to (id or name); leave out to show theirs.") var calendar: String?

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let employee = try await context.employee(username)
            let actor = try await context.actor()
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

    struct WorkingWeekCommand: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "working-week",
            abstract: "Set an employee's own working week (part time) from a day on; `company` goes back to the company's.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Argument(help: "ISO weekday digits, 1 = Monday ... 7 = Sunday (e.g. 1234), or company.") var week: String
        @Option(help: "The first day of the new week (YYYY-MM-DD, today or later).") var from: String

        func run(_ context: AdminContext) async throws {
            let startsOn = try CalendarDate.parse(from, field: "--from")
            let parsed = week == "company" ? nil : try CompanyRules.workingWeek(code: week, field: "week")
            let services = context.services
            let employee = try await context.employee(username)
            _ = try await services.holidays.setWorkingWeek(
                employeeID: employee.id, from: startsOn, week: parsed, by: try await context.actor())
            printOut("\(employee.username) works \(parsed?.description ?? "the company's week") from \(startsOn).\n")
        }
    }

    struct WorkingWeeks: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "working-weeks", abstract: "An employee's working weeks, each from the day it starts.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let employee = try await context.employee(username)
            let weeks = try await services.holidays.workingWeeks(employeeID: employee.id, by: try await context.actor())
            Output(
                columns: ["starts_on", "working_week", "set_by", "set_at"],
                rows: weeks.changes.map { change in
                    [.text(change.startsOn.description), .text(change.week?.code ?? "company (\(weeks.company.code))"),
                     .text(change.setBy), .text(Timestamp.format(change.setAt))]
                }
            ).print(format)
        }
    }

    struct Add: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a local account. The password is read from standard input, never from the command line.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Option(help: "Given name.") var name: String
        @Option(help: "Surname.") var surname: String
        @Option(help: "E-mail address.") var email: String
        @Flag(help: "Make the account an admin.") var admin = false
        @Option(name: .customLong("start-date"), help: "First day of employment (YYYY-MM-DD).") var startDate: String?
        @Option(name: .customLong("end-date"), help: "Last day of employment (YYYY-MM-DD).") var endDate: String?
        @Flag(help: "Read the password from standard input (one line).") var passwordStdin = false
        @OptionGroup(title: "LDAP directory (with SG_DIRECTORY=ldap)") var ldap: LDAPOptions

        func run(_ context: AdminContext) async throws {
            var new = NewEmployee(username: username, name: name, surname: surname, email: email, isAdmin: admin, passwordHash: nil)
            new.employment = Employment(
                start: try startDate.map { try CalendarDate.parse($0, field: "start-date") },
                end: try endDate.map { try CalendarDate.parse($0, field: "end-date") })
            guard passwordStdin else {
                throw SGError.invalid(field: "--password-stdin", message: "a local account needs a password: pipe it in with --password-stdin")
            }
            let password = try readPasswordLine()
            let services = context.services
            let employee = try await services.accounts.addLocalAccount(
                new, password: password, passwords: services.passwords, directory: try ldap.loginDirectory(services),
                by: try await context.actor())
            printOut("Added \(employee.username) (id \(employee.id))\(employee.isAdmin ? " as an admin" : "").\n")
        }
    }

    struct Password: DatabaseCommand {
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

        func run(_ context: AdminContext) async throws {
            guard passwordStdin else {
                throw SGError.invalid(field: "--password-stdin", message: "pipe the new password in with --password-stdin")
            }
            let password = try readPasswordLine()
            let services = context.services
            // The directory's page, for the refusal of a directory account; a bad value is the server's to report.
            var settings = SettingsResolver(flags: [:], environment: ProcessInfo.processInfo.environment)
            let passwords = PasswordService(
                store: services.passwords.store, hasher: services.passwords.hasher, clock: services.passwords.clock,
                passwordPage: settings.ldapPasswordURL())
            let employee = try await passwords.setPassword(username: username, to: password)
            printOut("Set the password of \(employee.username); their sessions are ended.\n")
        }
    }

    struct List: DatabaseCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List employees.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let employees = try await services.accounts.employees()
            Output(
                columns: ["id", "username", "name", "surname", "email", "admin", "active"],
                rows: employees.map {
                    [.number(Int($0.id)), .text($0.username), .text($0.name), .text($0.surname), .text($0.email),
                     .flag($0.isAdmin), .flag($0.isActive)]
                }
            ).print(format)
        }
    }

    struct Change: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change an employee's name, surname, e-mail, position, phone, employment dates or accrual plan, all at once or none.",
            discussion: "An empty value clears the position, the phone or an employment date, and gives the employee the company's accrual plan. "
                + "Fields the company directory holds are refused.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Option(help: "Given name.") var name: String?
        @Option(help: "Surname.") var surname: String?
        @Option(help: "E-mail address.") var email: String?
        @Option(help: "Position (job title).") var position: String?
        @Option(help: "Phone number.") var phone: String?
        @Option(name: .customLong("start-date"), help: "First day of employment (YYYY-MM-DD).") var startDate: String?
        @Option(name: .customLong("end-date"), help: "Last day of employment (YYYY-MM-DD).") var endDate: String?
        @Option(help: "The employee's own accrual plan, as sgadmin company set takes it (\"\": the company's).") var accrual: String?
        @OptionGroup(title: "LDAP directory (with SG_DIRECTORY=ldap)") var ldap: LDAPOptions

        func run(_ context: AdminContext) async throws {
            var change = EmployeeChange()
            if let accrual {
                change.accrual = accrual.isEmpty ? .clear : .set(try AccrualPlan.parse(code: accrual, field: "--accrual"))
            }
            func set(_ value: String?) -> SGCore.Change<String> { value.map(SGCore.Change.set) ?? .keep }
            func date(_ value: String?, _ field: String) throws -> SGCore.Change<CalendarDate> {
                guard let value else { return .keep }
                return value.isEmpty ? .clear : .set(try CalendarDate.parse(value, field: field))
            }
            change.employment = EmploymentChange(start: try date(startDate, "start-date"), end: try date(endDate, "end-date"))
            change.profile.name = set(name)
            change.profile.surname = set(surname)
            change.profile.email = set(email)
            change.profile.position = set(position)
            change.profile.phone = set(phone)
            guard change != EmployeeChange() else {
                throw SGError.invalid(field: "options", message: "nothing to change: give at least one option (see --help)")
            }
            let profile = try await update(context, ldap, username, change)
            printOut("Updated \(profile.employee.username): \(profile.employee.fullName) <\(profile.employee.email)>"
                + ", position \(profile.position ?? "none"), phone \(profile.phone ?? "none"), employed \(profile.employment)"
                + (profile.accrual.map { ", own accrual plan \($0.code)" } ?? "") + ".\n")
        }
    }

    struct Admin: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "admin",
            abstract: "Make an employee an admin (--grant) or no longer one (--revoke); the last active admin stays one.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Flag(exclusivity: .exclusive, help: "Grant or revoke the admin role.") var role: Role
        @OptionGroup(title: "LDAP directory (with SG_DIRECTORY=ldap)") var ldap: LDAPOptions

        enum Role: String, EnumerableFlag { case grant, revoke }

        func run(_ context: AdminContext) async throws {
            let profile = try await update(context, ldap, username, EmployeeChange(isAdmin: role == .grant))
            printOut("\(profile.employee.username) is \(profile.employee.isAdmin ? "now an admin" : "no longer an admin").\n")
        }
    }

    struct Reactivate: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "reactivate",
            abstract: "Reactivate a deactivated account: they can log in again.",
            discussion: "An employee of the company directory comes back only while the directory still lists them.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @OptionGroup(title: "LDAP directory (with SG_DIRECTORY=ldap)") var ldap: LDAPOptions

        func run(_ context: AdminContext) async throws {
            let employee = try await context.employee(username)
            guard !employee.isActive else { throw SGError.conflict("\(employee.username) is active.") }
            _ = try await update(context, ldap, username, EmployeeChange(isActive: true))
            printOut("Reactivated \(employee.username); they can log in again.\n")
        }
    }

    /// An admin's change through the same rules as `PATCH /v1/employees/{id}`.
    static func update(_ context: AdminContext, _ ldap: LDAPOptions, _ username: String, _ change: EmployeeChange) async throws -> Profile {
        let employee = try await context.employee(username)
        return try await context.services.accounts.update(
            employeeID: employee.id, change, by: try await context.actor(), directory: try ldap.loginDirectory(context.services))
    }

    struct Deactivate: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "deactivate", abstract: "Deactivate an account: history is kept, login is refused.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let employee = try await services.accounts.deactivate(username: username)
            printOut("Deactivated \(employee.username); their tokens are revoked.\n")
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
