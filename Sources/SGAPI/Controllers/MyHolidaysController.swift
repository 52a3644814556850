import Foundation
import Hummingbird
import SGCore

/// The logged-in employee's holidays: their year and new requests.
struct MyHolidaysController {
    let services: Services

    struct NewHolidayBody: JSONObjectBody {
        static let fields = ["startDate", "endDate", "comment", "leaveTypeId", "startHalf", "endHalf"]
        static let what = "a field of a request"

        let startDate: String
        let endDate: String
        let comment: String?
        let leaveTypeId: Int64?
        let startHalf: String?
        let endHalf: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            startDate = try container.decode(String.self, forKey: AnyKey("startDate"))
            endDate = try container.decode(String.self, forKey: AnyKey("endDate"))
            // Null is the empty comment (for the other optional fields, null is refused).
            comment = try container.decodeIfPresent(String.self, forKey: AnyKey("comment"))
            leaveTypeId = try container.optional(Int64.self, "leaveTypeId")
            startHalf = try container.optional(String.self, "startHalf")
            endHalf = try container.optional(String.self, "endHalf")
        }

        func period() throws -> LeavePeriod {
            try LeavePeriod(
                start: try CalendarDate.parse(startDate, field: "startDate"), end: try CalendarDate.parse(endDate, field: "endDate"),
                startHalf: try startHalf.map { try DayHalf.parse($0, field: "startHalf") } ?? .morning,
                endHalf: try endHalf.map { try DayHalf.parse($0, field: "endHalf") } ?? .afternoon)
        }
    }

    /// 201 with the new request, where it is and its version.
    static func answer(_ created: DecidableRequest, _ employee: Employee) -> Answer {
        Answer(
            written: DTO.Request(created, employee: employee, viewer: employee.actor, today: created.today), status: .created,
            headers: [
                .location: "/v1/holidays/\(created.request.id)",
                .eTag: EntityTags.quoted(EntityTags.request(created.request.id, version: created.version)),
            ])
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// The logged-in employee's requests touching a year (default: this year) and that year's balance.
        group.get("/me/holidays") { request, context in
            let employee = try context.requireEmployee()
            let year = try request.integerQuery("year", in: HolidayService.supportedYears)
            let now = services.holidays.clock.now()
            // A body rendered for this request is sent as written, not expanded again from the copy kept.
            var rendered: [UInt8]?
            let kept = try await services.yearViews.value(
                for: YearViewKey(employeeID: employee.id, year: year), isCurrent: { $0.isCurrent(at: now) }
            ) {
                let view = try await services.holidays.yearView(employeeID: employee.id, year: year)
                // A year of the bench's company takes about 2.5 KB: written without growing the buffer.
                var json = JSONWriter(capacity: 4096)
                DTO.YearHolidays(
                    year: view.year,
                    requests: view.requests.map {
                        DTO.Request($0, employee: nil, viewer: employee.actor, today: view.today, approval: view.approval)
                    },
                    balance: view.balance
                ).write(to: &json)
                let body = json.utf8
                rendered = body
                return RenderedBody(today: view.today, timeZone: view.timeZone, body: CompressedBody(body))
            }
            return JSON.response(rendered.map { ByteBuffer(bytes: $0) } ?? kept.body.buffer)
        }

        /// Requests leave (a holiday unless another type is named, whole days unless halves are named); the server
        /// counts the working half days and checks overlap, balance and the type's cap. With an Idempotency-Key, a
        /// retry gets the first answer again.
        group.post("/me/holidays") { request, context in
            let employee = try context.requireEmployee()
            return try await RetryKey.run(request, context: context, employeeID: employee.id, services: services) { request, key in
                let body = try await JSON.decode(NewHolidayBody.self, from: request, context: context)
                let created = try await services.holidays.create(
                    for: employee.id, period: try body.period(), leaveTypeID: body.leaveTypeId, comment: body.comment ?? "",
                    actor: employee.actor, within: RetryKey.keeping(key) { Self.answer($0, employee) })
                return Self.answer(created, employee).response()
            }
        }

        /// What `POST /me/holidays` with this body would make, without making it: the working days the server counts,
        /// per year, the balances after, the status and who would decide; or the problem the request would get.
        group.post("/me/holidays/preview") { request, context in
            let employee = try context.requireEmployee()
            let body = try await JSON.decode(NewHolidayBody.self, from: request, context: context)
            let preview = try await services.holidays.preview(
                for: employee.id, period: try body.period(), leaveTypeID: body.leaveTypeId, comment: body.comment ?? "",
                actor: employee.actor)
            return JSON.response(written: DTO.Preview(preview: preview))
        }
    }
}
