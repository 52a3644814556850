import Foundation
import Hummingbird
import SGCore

/// Teams (admins manage them) and an approver's delegation to a substitute (`/me/delegation`).
struct TeamsController {
    let services: Services

    /// POST needs `name`; PATCH changes what it names.
    struct TeamBody: JSONObjectBody {
        static let fields = ["name", "twoStage"]
        static let what = "a team field"

        let name: String?
        let twoStage: Bool?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            name = try container.optional(String.self, "name")
            twoStage = try container.optional(Bool.self, "twoStage")
        }
    }

    struct DelegationBody: JSONObjectBody {
        static let fields = ["to", "from", "until"]
        static let what = "a delegation field"

        let to: Int64
        let from: CalendarDate
        let until: CalendarDate

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            to = try container.required(Int64.self, "to")
            from = try CalendarDate.parse(try container.required(String.self, "from"), field: "from")
            until = try CalendarDate.parse(try container.required(String.self, "until"), field: "until")
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        let teams = services.core.teams

        /// The teams with their members and approvers, by name: every team for an admin, the teams an approver or
        /// delegate decides for. `limit` pages them (the next page is `after` the last name), `member` finds one's
        /// team. An admin without `limit` gets every team at once, as clients of earlier versions expect.
        group.get("/teams") { request, context in
            let viewer = try context.requireEmployee()
            let after = try request.textQuery("after", maximumLength: 255)
            let member = try request.integerQuery("member", in: 1...Int(Int64.max)).map(Int64.init)
            let limit = try request.integerQuery("limit", in: 1...TeamFilter.maximumLimit)
            if viewer.isAdmin, after == nil, member == nil, limit == nil {
                return JSON.response(written: DTO.Teams(teams: try await teams.teams(by: viewer.actor)))
            }
            let filter = TeamFilter(afterName: after, memberID: member, limit: limit ?? TeamFilter.maximumLimit)
            return JSON.response(written: DTO.Teams(teams: try await teams.teams(filter, by: viewer.actor)))
        }

        /// Admin: a new team, without members or approvers.
        group.post("/teams") { request, context in
            let admin = try context.requireAdmin()
            let body = try await JSON.decode(TeamBody.self, from: request, context: context)
            guard let name = body.name else { throw SGError.invalid(field: "name", message: "a team needs a name") }
            let team = try await teams.create(name: name, twoStage: body.twoStage ?? false, by: admin.actor)
            return JSON.response(written: DTO.TeamBody(team: team), status: .created, headers: [.location: "/v1/teams/\(team.id)"])
        }

        group.get("/teams/:id") { _, context in
            let admin = try context.requireAdmin()
            return JSON.response(written: DTO.TeamBody(team: try await teams.team(id: try context.parameters.id("id", what: "Team"), by: admin.actor)))
        }

        /// Admin: renames a team or switches its two-stage approval.
        group.patch("/teams/:id") { request, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Team")
            let body = try await JSON.decode(TeamBody.self, from: request, context: context)
            return JSON.response(written: DTO.TeamBody(team: try await teams.update(id: id, name: body.name, twoStage: body.twoStage, by: admin.actor)))
        }

        /// Admin: deletes a team; its members' requests go to the admins.
        group.delete("/teams/:id") { _, context in
            let admin = try context.requireAdmin()
            try await teams.delete(id: try context.parameters.id("id", what: "Team"), by: admin.actor)
            return Response(status: .noContent)
        }

        for role in ["members", "approvers"] {
            /// Admin: puts an employee in the team (moving them from any other) or makes them an approver of it.
            group.put("/teams/:id/\(role)/:employeeId") { _, context in
                let admin = try context.requireAdmin()
                let id = try context.parameters.id("id", what: "Team")
                let employeeID = try context.parameters.id("employeeId", what: "Employee")
                let team = role == "members"
                    ? try await teams.addMember(teamID: id, employeeID: employeeID, by: admin.actor)
                    : try await teams.addApprover(teamID: id, employeeID: employeeID, by: admin.actor)
                return JSON.response(written: DTO.TeamBody(team: team))
            }

            /// Admin: takes an employee out of the team, or from its approvers.
            group.delete("/teams/:id/\(role)/:employeeId") { _, context in
                let admin = try context.requireAdmin()
                let id = try context.parameters.id("id", what: "Team")
                let employeeID = try context.parameters.id("employeeId", what: "Employee")
                let team = role == "members"
                    ? try await teams.removeMember(teamID: id, employeeID: employeeID, by: admin.actor)
                    : try await teams.removeApprover(teamID: id, employeeID: employeeID, by: admin.actor)
                return JSON.response(written: DTO.TeamBody(team: team))
            }
        }

        /// The caller's delegation (running or not), 404 when there is none.
        group.get("/me/delegation") { _, context in
            let employee = try context.requireEmployee()
            guard let delegation = try await teams.delegation(of: employee.actor) else {
                throw SGError.notFound("You have no delegation.")
            }
            return JSON.response(written: DTO.DelegationBody(delegation: delegation))
        }

        /// An approver names a substitute who decides for them from `from` through `until`, replacing any delegation.
        group.put("/me/delegation") { request, context in
            let employee = try context.requireEmployee()
            let body = try await JSON.decode(DelegationBody.self, from: request, context: context)
            let delegation = try await teams.delegate(from: employee.actor, to: body.to, from: body.from, until: body.until)
            return JSON.response(written: DTO.DelegationBody(delegation: delegation))
        }

        /// Ends the caller's delegation.
        group.delete("/me/delegation") { _, context in
            let employee = try context.requireEmployee()
            try await teams.endDelegation(of: employee.actor)
            return Response(status: .noContent)
        }
    }
}

extension DTO {
    struct TeamBody: JSONBody {
        let team: Team

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("approvers"); json.array(team.approvers) { json, employee in json.value(EmployeeRef(employee)) }
                json.key("id"); json.value(team.id)
                json.key("members"); json.array(team.members) { json, employee in json.value(EmployeeRef(employee)) }
                json.key("name"); json.value(team.name)
                json.key("twoStage"); json.value(team.twoStage)
            }
        }
    }

    struct Teams: JSONBody {
        let teams: [Team]

        func write(to json: inout JSONWriter) {
            json.array(teams) { json, team in json.value(TeamBody(team: team)) }
        }
    }

    struct DelegationBody: JSONBody {
        let delegation: Delegation

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("from"); json.value(delegation.from)
                json.key("to"); json.value(delegation.substituteID)
                json.key("until"); json.value(delegation.until)
            }
        }
    }
}
