import Foundation
import Hummingbird
import SGCore

/// The company's holiday calendars (regional public holidays): everyone reads them; admins define them and say who
/// belongs to which.
struct HolidayCalendarsController {
    let services: Services

    /// POST and PATCH: `{name}`.
    struct NameBody: JSONObjectBody {
        static let fields = ["name"]
        static let what = "a holiday calendar field"

        var name: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            name = try container.required(String.self, "name")
        }
    }

    /// PUT /employees/{id}/holiday-calendar: `{calendarId}`.
    struct AssignmentBody: JSONObjectBody {
        static let fields = ["calendarId"]
        static let what = "a holiday calendar assignment field"

        var calendarID: Int64

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            calendarID = try container.required(Int64.self, "calendarId")
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Every calendar, by id, with how many employees belong to it.
        group.get("/holiday-calendars") { _, context in
            _ = try context.requireEmployee()
            return try JSON.response(try await services.core.company.holidayCalendars().map(DTO.HolidayCalendarBody.init))
        }

        /// Admin: a new, empty calendar.
        group.post("/holiday-calendars") { request, context in
            let admin = try context.requireAdmin()
            let body = try await JSON.decode(NameBody.self, from: request, context: context)
            let created = try await services.core.company.createHolidayCalendar(name: body.name, by: admin.actor)
            return try JSON.response(
                DTO.HolidayCalendarBody(created), status: .created, headers: [.location: "/v1/holiday-calendars/\(created.id)"])
        }

        /// Admin: renames a calendar.
        group.patch("/holiday-calendars/:id") { request, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Holiday calendar")
            let body = try await JSON.decode(NameBody.self, from: request, context: context)
            return try JSON.response(
                DTO.HolidayCalendarBody(try await services.core.company.renameHolidayCalendar(id: id, to: body.name, by: admin.actor)))
        }

        /// Admin: deletes a calendar no employee belongs to, with its public holidays (409 otherwise).
        group.delete("/holiday-calendars/:id") { _, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Holiday calendar")
            try await services.core.company.deleteHolidayCalendar(id: id, by: admin.actor)
            return Response(status: .noContent)
        }

        /// The calendar an employee belongs to: one's own, or anyone's for an admin.
        group.get("/employees/:id/holiday-calendar") { _, context in
            let employee = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Employee")
            return try JSON.response(
                DTO.HolidayCalendarBody(try await services.core.company.holidayCalendar(ofEmployee: id, by: employee.actor)))
        }

        /// Admin: moves an employee to another calendar; requests already made keep their days.
        group.put("/employees/:id/holiday-calendar") { request, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Employee")
            let body = try await JSON.decode(AssignmentBody.self, from: request, context: context)
            return try JSON.response(DTO.HolidayCalendarBody(
                try await services.core.company.setHolidayCalendar(ofEmployee: id, to: body.calendarID, by: admin.actor)))
        }
    }
}
