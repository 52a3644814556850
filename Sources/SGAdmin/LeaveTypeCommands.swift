import ArgumentParser
import Foundation
import SGCore

/// `sgadmin leave-type`: the company's leave types.
struct LeaveTypeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave-type", abstract: "List, add, change, retire and delete leave types.",
        subcommands: [List.self, Add.self, Change.self, Retire.self, Delete.self])

    static func rows(_ types: [LeaveType]) -> Output {
        Output(
            columns: ["id", "name", "draws_on_allowance", "needs_approval", "private", "yearly_cap", "retired"],
            rows: types.map { type in
                [.number(Int(type.id)), .text(type.name), .flag(type.drawsOnAllowance),
                 .flag(type.needsApproval), .flag(type.isPrivate),
                 type.yearlyCap.map { .days($0) } ?? .text(""), .flag(type.isRetired)]
            })
    }

    /// A cap as typed: days in 0.5 steps, or "none".
    static func cap(_ text: String?) throws -> HalfDays?? {
        guard let text else { return nil }
        if text == "none" { return .some(nil) }
        // The range is the rules' to check (LeaveTypeService).
        guard let days = HalfDays(days: text) else {
            throw SGError.invalid(field: "--yearly-cap", message: "'\(text)' is not a number of days in 0.5 steps, or none")
        }
        return .some(days)
    }

    struct List: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List every leave type, retired ones too.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run(_ context: AdminContext) async throws {
            LeaveTypeCommand.rows(try await context.services.leaveTypes.list()).print(format)
        }
    }

    struct Add: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a leave type (by default: needs approval, does not draw on the allowance, visible to colleagues).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Its name, e.g. parental.") var name: String
        @Flag(help: "Its days count against the yearly allowance.") var drawsOnAllowance = false
        @Flag(help: "Recorded as approved at once.") var noApproval = false
        @Flag(name: .customLong("private"), help: "Colleagues see only that the employee is away.") var isPrivate = false
        @Option(help: "At most this many days a year per employee (0.5 steps).") var yearlyCap: String?

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let created = try await services.leaveTypes.create(
                LeaveTypeChange(
                    name: name, drawsOnAllowance: drawsOnAllowance, needsApproval: !noApproval, isPrivate: isPrivate,
                    yearlyCap: try LeaveTypeCommand.cap(yearlyCap)),
                by: try await context.actor())
            printOut("Leave type \(created.id) '\(created.name)' added.\n")
        }
    }

    struct Change: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "change", abstract: "Change a leave type's name, approval, privacy or cap.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The type's id.") var id: Int64
        @Option(help: "A new name.") var name: String?
        @Option(help: "true or false.") var needsApproval: Bool?
        @Option(name: .customLong("private"), help: "true or false.") var isPrivate: Bool?
        @Option(help: "Days a year (0.5 steps), or none.") var yearlyCap: String?

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let changed = try await services.leaveTypes.update(
                id: id,
                LeaveTypeChange(
                    name: name, needsApproval: needsApproval, isPrivate: isPrivate, yearlyCap: try LeaveTypeCommand.cap(yearlyCap)),
                by: try await context.actor())
            LeaveTypeCommand.rows([changed]).print(.table)
        }
    }

    struct Retire: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "retire", abstract: "Retire a leave type: its requests stay, new ones are refused.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The type's id.") var id: Int64
        @Flag(help: "Bring a retired type back instead.") var undo = false

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let changed = try await services.leaveTypes.update(
                id: id, LeaveTypeChange(isRetired: !undo), by: try await context.actor())
            printOut("Leave type \(changed.id) '\(changed.name)' is \(changed.isRetired ? "retired" : "in use again").\n")
        }
    }

    struct Delete: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a leave type no request has used.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The type's id.") var id: Int64

        func run(_ context: AdminContext) async throws {
            let services = context.services
            try await services.leaveTypes.delete(id: id, by: try await context.actor())
            printOut("Leave type \(id) deleted.\n")
        }
    }
}
