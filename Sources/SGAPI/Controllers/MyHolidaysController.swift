import Foundation
import Hummingbird
import SGCore

/// The logged-in employee's holidays: their year and new requests.
struct MyHolidaysController {
    let services: Services

    struct NewHolidayBody: Decodable {
        let startDate: String
        let endDate: String
        let comment: String?
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// The logged-in employee's requests touching a year (default: this year) and that year's balance.
        group.get("/me/holidays") { request, context in
            let employee = try context.requireEmployee()
            let year = try request.integerQuery("year", in: HolidayService.supportedYears)
            let now = services.holidays.clock.now()
            let rendered = try await services.yearViews.value(
                for: RenderedYearView.Key(employeeID: employee.id, year: year), isCurrent: { $0.isCurrent(at: now) }
            ) {
                let view = try await services.holidays.yearView(employeeID: employee.id, year: year)
                var json = JSONWriter()
                DTO.YearHolidays(
                    year: view.year,
                    requests: view.requests.map { DTO.Request($0, employee: nil, viewer: employee.actor, today: view.today) },
                    balance: view.balance
                ).write(to: &json)
                return RenderedYearView(today: view.today, timeZone: view.timeZone, body: json.buffer)
            }
            return JSON.response(rendered.body)
        }

        /// Requests days off; the server counts the working days and checks overlap and balance.
        group.post("/me/holidays") { request, context in
            let employee = try context.requireEmployee()
            let body = try await JSON.decode(NewHolidayBody.self, from: request, context: context)
            let created = try await services.holidays.createRequest(
                for: employee.id, start: try CalendarDate.parse(body.startDate, field: "startDate"),
                end: try CalendarDate.parse(body.endDate, field: "endDate"), comment: body.comment ?? "", actor: employee.actor)
            let today = try await services.company.today()
            return JSON.response(
                written: DTO.Request(created, employee: employee, viewer: employee.actor, today: today), status: .created,
                headers: [.location: "/v1/holidays/\(created.id)"])
        }
    }
}
