import ArgumentParser
import Foundation
import SGCore

/// Requests as `pending` and `list` show them; the halves in columns of their own, as in the export.
func requestRows(_ items: [RequestWithEmployee]) -> Output {
    Output(
        columns: ["id", "username", "name", "type", "start", "start_half", "end", "end_half", "working_days", "status", "comment"],
        rows: items.map { item in
            [.number(Int(item.request.id)), .text(item.employee.username), .text(item.employee.fullName),
             .text(item.request.leaveTypeName), .text(item.request.startDate.description), .text(item.request.startHalf.rawValue),
             .text(item.request.endDate.description), .text(item.request.endHalf.rawValue),
             .days(item.request.duration), .text(item.request.status.rawValue), .text(item.request.comment)]
        })
}

struct Pending: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending",
        abstract: "List requests waiting for a decision (pending, and approved by a manager), oldest first.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Only the requests of this team's members (its name or id).") var team: String?
    @Option(help: "table, json or csv.") var format: OutputFormat = .table

    func run(_ context: AdminContext) async throws {
        let services = context.services
        let actor = try await context.actor()
        var filter = RequestFilter()
        if let team { filter.employeeIDs = try await services.teams.team(named: team, by: actor).members.map(\.id) }
        var waiting: [RequestWithEmployee] = []
        for status in HolidayStatus.allCases where status.awaitsDecision {
            filter.status = status
            waiting += try await services.holidays.allRequests(filter, by: actor)
        }
        waiting.sort { $0.request.id < $1.request.id }
        requestRows(waiting).print(format)
    }
}

struct List: DatabaseCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List requests by status, year and employee.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "pending, approved-by-manager, approved, rejected or cancelled.") var status: String?
    @Option(help: "Requests touching this year.") var year: Int?
    @Option(help: "An employee's username.") var employee: String?
    @Option(help: "table, json or csv.") var format: OutputFormat = .table

    func run(_ context: AdminContext) async throws {
        let services = context.services
        var filter = RequestFilter()
        if let status { filter.status = try HolidayStatus.parse(status, field: "--status") }
        if let year { try HolidayService.checkYear(year); filter.year = year }
        if let employee { filter.employeeID = try await findEmployee(services, employee).id }
        requestRows(try await services.holidays.allRequests(filter, by: try await context.actor())).print(format)
    }
}

struct Show: DatabaseCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a request with its history.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The request id.") var id: Int64

    func run(_ context: AdminContext) async throws {
        let services = context.services
        let actor = try await context.actor()
        let detail = try await services.holidays.requestDetail(id: id, by: actor)
        let request = detail.request
        // The moves this operator (--as) could make now, by the rules `approve` and the others apply.
        let allowed = HolidayRules.allowedActions(on: request, by: actor, today: detail.today, approval: detail.approval)
        let approvers = Approval.asked(for: request, detail.approval)
        // What employees typed is shown as typed, but no control character reaches the terminal as such.
        func shown(_ text: String) -> String { TextRules.shownSafely(text, keeping: ["\n", "\t"]) }
        var text = """
            Request \(request.id)  \(request.status.rawValue)
            Employee:      \(shown(detail.employee.fullName)) (\(detail.employee.username))
            Type:          \(shown(request.leaveTypeName))
            Dates:         \(request.period)
            Working days:  \(request.duration)\(detail.daysByYear.count > 1 ? " (" + detail.daysByYear.sorted { $0.key < $1.key }.map { "\($0.value) in \($0.key)" }.joined(separator: ", ") + ")" : "")
            Comment:       \(request.comment.isEmpty ? "-" : shown(request.comment))
            Allowed moves: \(allowed.map(\.rawValue).joined(separator: ", ").ifEmpty(request.status.allowedActions.isEmpty ? "none (final)" : "none for you"))
            Approvers:     \(approvers.map { "\(shown($0.fullName)) (\($0.username))" }.joined(separator: ", ").ifEmpty("-"))
            History:

            """
        for event in detail.events {
            let move = event.from.map { "\($0.rawValue) -> \(event.to.rawValue)" } ?? "created (\(event.to.rawValue))"
            text += "  \(Timestamp.format(event.at))  \(move)  by \(shown(event.actor))\(event.note.isEmpty ? "" : "  \"\(shown(event.note))\"")\n"
        }
        printOut(text)
    }
}

extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}

/// The shared shape of approve, reject, revert and cancel.
protocol TransitionCommand: DatabaseCommand {
    static var action: HolidayAction { get }
    var global: GlobalOptions { get }
    var id: Int64 { get }
    var text: String? { get }
}

extension TransitionCommand {
    func run(_ context: AdminContext) async throws {
        let services = context.services
        let actor = try await context.actor()
        let request = try await services.holidays.perform(Self.action, on: id, by: actor, note: text ?? "")
        printOut("Request \(request.id) is now \(request.status.rawValue).\n")
    }
}

struct Approve: TransitionCommand {
    static let configuration = CommandConfiguration(commandName: "approve", abstract: "Approve a pending request.")
    static let action = HolidayAction.approve
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The request id.") var id: Int64
    @Option(help: "A note for the history.") var note: String?
    var text: String? { note }
}

struct Reject: TransitionCommand {
    static let configuration = CommandConfiguration(
        commandName: "reject", abstract: "Reject a pending request, with a reason.")
    static let action = HolidayAction.reject
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The request id.") var id: Int64
    @Option(help: "Why, for the employee.") var reason: String
    var text: String? { reason }
}

struct Revert: TransitionCommand {
    static let configuration = CommandConfiguration(
        commandName: "revert", abstract: "Move an approved request back to pending.")
    static let action = HolidayAction.revert
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The request id.") var id: Int64
    @Option(help: "A note for the history.") var note: String?
    var text: String? { note }
}

struct Cancel: TransitionCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "Cancel a pending or approved request.")
    static let action = HolidayAction.cancel
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The request id.") var id: Int64
    @Option(help: "A note for the history.") var note: String?
    var text: String? { note }
}

func findEmployee(_ services: CoreServices, _ username: String) async throws -> Employee {
    guard let employee = try await services.accounts.employee(username: username) else {
        throw SGError.notFound("No employee with username '\(username)'.")
    }
    return employee
}
