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
            + "expiring \(balance.expiring), "
            + "adjusted \(balance.adjusted), approved \(balance.approved), pending \(balance.pending), remaining \(balance.remaining)\n"
    }

    struct Set: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set one employee's allowance for one year.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Argument(help: "Year.") var year: Int
        @Argument(help: "Working days.") var days: Int

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let employee = try await context.employee(username)
            let actor = try await context.actor()
            let balance = try await services.holidays.setAllowance(
                employeeID: employee.id, year: year, days: days, by: actor)
            printOut(AllowanceCommand.summary(employee.username, balance))
        }
    }

    struct Adjust: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "adjust",
            abstract: "Add days to an employee's year, or remove them (negative), with a reason the employee reads.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Argument(help: "Year.") var year: Int
        // Collected with what no option takes, so that a negative number (-2) is a value, not an unknown option.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Days in steps of 0.5: 2, +2, -1.5.", valueName: "days"))
        var days: [String]
        @Option(help: "Why (required).") var reason: String

        func run(_ context: AdminContext) async throws {
            guard self.days.count == 1, let days = HalfDays(days: self.days[0]) else {
                throw SGError.invalid(
                    field: "days",
                    message: "'\(self.days.joined(separator: " "))' is not one number of days in steps of 0.5, such as 2, +2 or -1.5")
            }
            let services = context.services
            let employee = try await context.employee(username)
            let (change, balance) = try await services.holidays.adjustAllowance(
                employeeID: employee.id, year: year, days: days, reason: reason, by: try await context.actor())
            printOut("Adjustment \(change.id) recorded.\n" + AllowanceCommand.summary(employee.username, balance))
        }
    }

    struct Log: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "log", abstract: "An employee's allowance history: allowances set and adjustments.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Option(help: "Only this year [default: every year].") var year: Int?
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let employee = try await context.employee(username)
            let changes = try await services.holidays.allowanceChanges(
                employeeID: employee.id, year: year, by: try await context.actor())
            Output(
                columns: ["id", "year", "kind", "days", "reason", "by", "at"],
                rows: changes.map { change in
                    [.number(Int(change.id)), .number(change.year), .text(change.kind.rawValue), .days(change.days),
                     .text(change.reason), .text(change.actor), .text(Timestamp.format(change.at))]
                }
            ).print(format)
        }
    }

    struct Show: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show an employee's balance for a year.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Username.") var username: String
        @Option(help: "Year [default: this year].") var year: Int?
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let employee = try await context.employee(username)
            let year = try await services.company.year(self.year)
            let balance = try await services.holidays.balance(employeeID: employee.id, year: year)
            Output(
                columns: [
                    "username", "year", "allowance", "carried_over", "expired", "expiring", "carry_over_expires_on", "adjusted",
                    "approved", "pending", "remaining", "allowance_formula", "accrual", "earned", "requestable",
                ],
                rows: [[.text(employee.username), .number(year), .days(balance.allowance), .days(balance.carriedOver),
                        .days(balance.expired), .days(balance.expiring), .text(balance.carryOverExpiresOn?.description ?? ""), .days(balance.adjusted),
                        .days(balance.approved), .days(balance.pending), .days(balance.remaining),
                        .text(balance.allowanceFormula ?? ""), .text(balance.accrual?.plan.code ?? ""),
                        balance.accrual.map { .days($0.earned) } ?? .text(""), .days(balance.requestable)]]
            ).print(format)
        }
    }

    struct Default: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "default", abstract: "Set the company's default allowance (working days a year).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Working days.") var days: Int

        func run(_ context: AdminContext) async throws {
            let services = context.services
            try await services.company.setDefaultAllowance(days, by: try await context.actor())
            printOut("Default allowance is now \(days) working days.\n")
        }
    }
}
