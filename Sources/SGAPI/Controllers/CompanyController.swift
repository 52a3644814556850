import Foundation
import Hummingbird
import SGCore

/// The company's details and settings, and its public holidays.
struct CompanyController {
    let services: Services

    /// PUT /v1/company replaces the company: `name`, `workingWeek` and `defaultAllowance` are required; an
    /// absent or null address, phone, email or website is cleared; `timeZone`, `carryOverCap`, `carryOverExpiry`,
    /// `proRata`, `proRataRounding`, `seniority`, `seniorityFrom`, `accrual` and `feeds` are kept when absent.
    struct PutBody: JSONObjectBody {
        static let fields = [
            "name", "address", "phone", "email", "website", "workingWeek", "defaultAllowance", "timeZone", "carryOverCap",
            "carryOverExpiry", "proRata", "proRataRounding", "seniority", "seniorityFrom", "accrual", "feeds",
        ]
        static let what = "a company field"

        var patch = CompanyPatch()

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            patch.name = try container.decode(String.self, forKey: AnyKey("name"))
            for (name, keyPath) in [
                ("address", \CompanyPatch.address), ("phone", \CompanyPatch.phone), ("email", \CompanyPatch.email),
                ("website", \CompanyPatch.website),
            ] {
                let change = try container.change(String.self, name)
                patch[keyPath: keyPath] = change == .keep ? .clear : change
            }
            patch.workingWeek = try CompanyRules.workingWeek(try container.decode([Int].self, forKey: AnyKey("workingWeek")))
            // Read as a number of any shape so that 1.5 gets a 422 naming the field, not a parse error.
            patch.defaultAllowance = try JSON.wholeDays(
                try container.decode(Double.self, forKey: AnyKey("defaultAllowance")), field: "defaultAllowance")
            patch.timeZone = try container.decodeIfPresent(String.self, forKey: AnyKey("timeZone"))
            if let cap = try container.optional(Double.self, "carryOverCap") {
                guard let days = HalfDays(days: cap, limit: 366) else {
                    throw SGError.invalid(field: "carryOverCap", message: "must be between 0 and 366 days, in steps of 0.5")
                }
                patch.carryOverCap = days
            }
            patch.carryOverExpiry = try container.optional(String.self, "carryOverExpiry")
            patch.proRata = try container.optional(String.self, "proRata")
            patch.proRataRounding = try container.optional(String.self, "proRataRounding")
            patch.seniority = try container.optional([TierBody].self, "seniority")?.map(\.tier)
            patch.seniorityFrom = try container.optional(String.self, "seniorityFrom")
            patch.accrual = try container.optional(AccrualBody.self, "accrual")?.plan
            patch.feeds = try container.optional([String].self, "feeds")
        }
    }

    /// An accrual plan: `{period, credited?, advance?}`, `advance` being "none", "year" or a number of days.
    struct AccrualBody: Decodable {
        let plan: AccrualPlan

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            if let unknown = container.allKeys.first(where: { !["period", "credited", "advance"].contains($0.stringValue) }) {
                throw SGError.invalid(
                    field: "accrual.\(unknown.stringValue)", message: "'\(unknown.stringValue)' is not a field of a plan (period, credited, advance)")
            }
            guard let period = try? container.decode(String.self, forKey: AnyKey("period")) else {
                throw SGError.invalid(field: "accrual.period", message: "period is required: year, quarter or month")
            }
            var credited: String?
            if container.contains(AnyKey("credited")) {
                guard let text = try? container.decode(String.self, forKey: AnyKey("credited")) else {
                    throw SGError.invalid(field: "accrual.credited", message: "credited is start or end")
                }
                credited = text
            }
            let key = AnyKey("advance")
            var advance: String?
            if container.contains(key) {
                if let days = try? container.decode(Int.self, forKey: key) {
                    advance = String(days)
                } else if let name = try? container.decode(String.self, forKey: key), Int(name) == nil {
                    advance = name
                } else {
                    throw SGError.invalid(field: "accrual.advance", message: "advance is \"none\", \"year\" or a whole number of days")
                }
            }
            plan = try AccrualPlan.parse(
                period: period, credited: credited,
                advance: advance, field: "accrual")
        }
    }

    /// A seniority tier: `{years, days}`, whole numbers; another key is refused.
    struct TierBody: Decodable {
        let tier: SeniorityPolicy.Tier

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            if let unknown = container.allKeys.first(where: { $0.stringValue != "years" && $0.stringValue != "days" }) {
                throw SGError.invalid(field: "seniority", message: "'\(unknown.stringValue)' is not a field of a tier (years, days)")
            }
            tier = SeniorityPolicy.Tier(
                years: try container.required(Int.self, "years"), days: try container.required(Int.self, "days"))
        }
    }

    /// POST /v1/public-holidays: `{date, name, calendarId?}`.
    struct PublicHolidayBody: JSONObjectBody {
        static let fields = ["date", "name", "calendarId"]
        static let what = "a public holiday field"

        var holiday: PublicHoliday
        var calendarID: Int64

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            holiday = PublicHoliday(
                date: try CalendarDate.parse(try container.required(String.self, "date"), field: "date"),
                name: try container.required(String.self, "name"))
            calendarID = try container.optional(Int64.self, "calendarId") ?? HolidayCalendar.defaultID
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// The company's name, contact details, working week, default allowance and time zone.
        group.get("/company") { _, context in
            _ = try context.requireEmployee()
            return try JSON.response(DTO.CompanyBody(try await services.company.company()))
        }

        /// Admin: replaces the company's details and settings in one transaction.
        group.put("/company") { request, context in
            let admin = try context.requireAdmin()
            let body = try await JSON.decode(PutBody.self, from: request, context: context)
            return try JSON.response(DTO.CompanyBody(try await services.company.updateCompany(body.patch, by: admin.actor)))
        }

        /// The newest items of the company's news feeds, newest first, as last fetched in the background.
        group.get("/company/feed") { request, context in
            _ = try context.requireEmployee()
            let limit = try request.integerQuery("limit", in: 1...CompanyFeedService.maximumLimit) ?? CompanyFeedService.defaultLimit
            return JSON.response(written: DTO.CompanyFeedBody(items: try await services.feeds.items(limit: limit).map(DTO.FeedItemBody.init)))
        }

        /// The public holidays of a year (default: this year) in a calendar (default: the caller's).
        group.get("/public-holidays") { request, context in
            let employee = try context.requireEmployee()
            let year = try await services.company.year(try request.integerQuery("year", in: HolidayService.supportedYears))
            let calendar = try request.integerQuery("calendar", in: 1...Int.max).map(Int64.init)
            return try JSON.response(
                try await services.company.publicHolidays(year: year, calendarID: calendar, ofEmployee: employee.id)
                    .map(DTO.PublicHolidayBody.init))
        }

        /// Admin: adds a public holiday to a calendar (default: the first); 409 when the day already is one there.
        group.post("/public-holidays") { request, context in
            let admin = try context.requireAdmin()
            let body = try await JSON.decode(PublicHolidayBody.self, from: request, context: context)
            let added = try await services.company.addPublicHoliday(body.holiday, calendarID: body.calendarID, by: admin.actor)
            return try JSON.response(
                DTO.PublicHolidayBody(added), status: .created,
                headers: [.location: "/v1/public-holidays?year=\(added.date.year)&calendar=\(body.calendarID)"])
        }

        /// Admin: removes a public holiday from a calendar (default: the first); 404 when the day is none there.
        group.delete("/public-holidays/:date") { request, context in
            let admin = try context.requireAdmin()
            let date = try CalendarDate.parse(context.parameters.get("date") ?? "", field: "date")
            let calendar = try request.integerQuery("calendar", in: 1...Int.max).map(Int64.init) ?? HolidayCalendar.defaultID
            try await services.company.removePublicHoliday(date: date, calendarID: calendar, by: admin.actor)
            return Response(status: .noContent)
        }
    }
}
