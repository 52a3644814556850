import ArgumentParser
import Foundation
import SGCore

/// `sgadmin team`: teams, their members and their approvers.
struct TeamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "team", abstract: "Manage teams: their members and the approvers who decide their requests.",
        subcommands: [List.self, Show.self, Add.self, Rename.self, Remove.self, Member.self, Approver.self])

    static func rows(_ teams: [Team]) -> Output {
        Output(
            columns: ["id", "name", "two_stage", "members", "approvers"],
            rows: teams.map { team in
                [.number(Int(team.id)), .text(team.name), .flag(team.twoStage), .number(team.members.count),
                 .text(team.approvers.map(\.username).joined(separator: " "))]
            })
    }

    static func describe(_ team: Team) -> String {
        func people(_ employees: [Employee]) -> String {
            employees.map { "  \($0.username)  \(TextRules.shownSafely($0.fullName, keeping: []))\($0.isActive ? "" : " (deactivated)")\n" }
                .joined().ifEmpty("  -\n")
        }
        return "Team \(team.id)  \(team.name)\nTwo-stage approval: \(team.twoStage ? "yes" : "no")\nApprovers:\n\(people(team.approvers))"
            + "Members:\n\(people(team.members))"
    }

    struct List: DatabaseCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the teams.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "table, json or csv.") var format: OutputFormat = .table

        func run(_ context: AdminContext) async throws {
            let services = context.services
            TeamCommand.rows(try await services.teams.teams(by: try await context.actor())).print(format)
        }
    }

    struct Show: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show a team with its approvers and members.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The team's name or id.") var team: String

        func run(_ context: AdminContext) async throws {
            let services = context.services
            printOut(TeamCommand.describe(try await services.teams.team(named: team, by: try await context.actor())))
        }
    }

    struct Add: DatabaseCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a team.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Its name.") var name: String
        @Flag(help: "Two-stage approval: the approver, then an admin.") var twoStage = false

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let team = try await services.teams.create(name: name, twoStage: twoStage, by: try await context.actor())
            printOut("Team \(team.id) \(team.name) added.\n")
        }
    }

    struct Rename: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Rename a team, or switch its two-stage approval.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The team's name or id.") var team: String
        @Argument(help: "Its new name (default: unchanged).") var name: String?
        @Option(help: "on or off.") var twoStage: String?

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let actor = try await context.actor()
            let twoStage: Bool? = switch twoStage {
            case nil: nil
            case "on": true
            case "off": false
            case let other?: throw SGError.invalid(field: "--two-stage", message: "'\(other)' is not on or off")
            }
            let found = try await services.teams.team(named: team, by: actor)
            let changed = try await services.teams.update(id: found.id, name: name, twoStage: twoStage, by: actor)
            printOut("Team \(changed.id) is \(changed.name)\(changed.twoStage ? ", with two-stage approval" : "").\n")
        }
    }

    struct Remove: DatabaseCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a team: its members' requests go to the admins.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The team's name or id.") var team: String

        func run(_ context: AdminContext) async throws {
            let services = context.services
            let actor = try await context.actor()
            let found = try await services.teams.team(named: team, by: actor)
            try await services.teams.delete(id: found.id, by: actor)
            printOut("Team \(found.id) \(found.name) removed.\n")
        }
    }

    /// `member add|remove` and `approver add|remove`.
    struct Member: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "member",
            abstract: "Put an employee in a team (moving them from any other) or take them out.", subcommands: [Add.self, Remove.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "Put an employee in the team.")
            @OptionGroup var people: TeamPersonOptions
            func run() async throws { try await people.change { try await $0.addMember(teamID: $1, employeeID: $2, by: $3) } }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove", abstract: "Take an employee out of the team.")
            @OptionGroup var people: TeamPersonOptions
            func run() async throws { try await people.change { try await $0.removeMember(teamID: $1, employeeID: $2, by: $3) } }
        }
    }

    struct Approver: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "approver",
            abstract: "Make an employee an approver of a team, or no longer.", subcommands: [Add.self, Remove.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "Make an employee an approver of the team.")
            @OptionGroup var people: TeamPersonOptions
            func run() async throws { try await people.change { try await $0.addApprover(teamID: $1, employeeID: $2, by: $3) } }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove", abstract: "The employee no longer approves for the team.")
            @OptionGroup var people: TeamPersonOptions
            func run() async throws { try await people.change { try await $0.removeApprover(teamID: $1, employeeID: $2, by: $3) } }
        }
    }
}

/// A team and an employee, for the member and approver commands.
struct TeamPersonOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The team's name or id.") var team: String
    @Argument(help: "The employee's username.") var username: String

    func change(_ body: (TeamService, Int64, Int64, Actor) async throws -> Team) async throws {
        try await running {
            let services = try global.services()
            let actor = try await global.actor(services)
            let found = try await services.teams.team(named: team, by: actor)
            let employee = try await findEmployee(services, username)
            printOut(TeamCommand.describe(try await body(services.teams, found.id, employee.id, actor)))
        }
    }
}
