import Foundation
import Hummingbird
import SGCore

/// The company's leave types: everyone reads them (to name one in a request); admins define and change them.
struct LeaveTypesController {
    let services: Services

    /// POST creates a type (`name` required); PATCH changes the fields it names. `yearlyCap` null removes the cap.
    struct Body: JSONObjectBody {
        static let fields = ["name", "drawsOnAllowance", "needsApproval", "private", "yearlyCap", "retired"]
        static let what = "a leave type field"

        var change = LeaveTypeChange()

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            change.name = try container.optional(String.self, "name")
            change.drawsOnAllowance = try container.optional(Bool.self, "drawsOnAllowance")
            change.needsApproval = try container.optional(Bool.self, "needsApproval")
            change.isPrivate = try container.optional(Bool.self, "private")
            change.isRetired = try container.optional(Bool.self, "retired")
            switch try container.change(Double.self, "yearlyCap") {
            case .keep: break
            case .clear: change.yearlyCap = .some(nil)
            case .set(let days):
                guard let cap = HalfDays(days: days) else {
                    throw SGError.invalid(field: "yearlyCap", message: "must be a number of days in steps of 0.5")
                }
                change.yearlyCap = .some(cap)
            }
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Every leave type, retired ones included, by id.
        group.get("/leave-types") { _, context in
            _ = try context.requireEmployee()
            return try JSON.response(try await services.core.leaveTypes.list().map(DTO.LeaveTypeBody.init))
        }

        group.get("/leave-types/:id") { _, context in
            _ = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Leave type")
            return try JSON.response(DTO.LeaveTypeBody(try await services.core.leaveTypes.leaveType(id: id)))
        }

        /// Admin: a new type.
        group.post("/leave-types") { request, context in
            let admin = try context.requireAdmin()
            let body = try await JSON.decode(Body.self, from: request, context: context)
            let created = try await services.core.leaveTypes.create(body.change, by: admin.actor)
            return try JSON.response(
                DTO.LeaveTypeBody(created), status: .created, headers: [.location: "/v1/leave-types/\(created.id)"])
        }

        /// Admin: changes a type; `retired: true` retires it (no new requests), `false` brings it back.
        group.patch("/leave-types/:id") { request, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Leave type")
            let body = try await JSON.decode(Body.self, from: request, context: context)
            return try JSON.response(DTO.LeaveTypeBody(try await services.core.leaveTypes.update(id: id, body.change, by: admin.actor)))
        }

        /// Admin: deletes a type no request uses (409 otherwise: retire it).
        group.delete("/leave-types/:id") { _, context in
            let admin = try context.requireAdmin()
            try await services.core.leaveTypes.delete(id: try context.parameters.id("id", what: "Leave type"), by: admin.actor)
            return Response(status: .noContent)
        }
    }
}
