import Foundation
import Hummingbird
import SGCore
import SGStore

/// Everything a handler needs, passed in by `buildApplication`.
public struct Services: Sendable {
    public let database: AppDatabase
    public let holidays: HolidayService
    public let sessions: Sessions
    /// Addresses of reverse proxies whose X-Forwarded-For is believed when throttling logins per client
    /// (`IPAddress.canonical` form).
    public let trustedProxies: Set<String>
    let yearViews = RenderedYearViews()

    public init(database: AppDatabase, holidays: HolidayService, sessions: Sessions, trustedProxies: Set<String> = []) {
        self.database = database
        self.holidays = holidays
        self.sessions = sessions
        self.trustedProxies = Set(trustedProxies.map { IPAddress.canonical($0) ?? $0 })
    }
}

struct AuthController {
    let services: Services

    struct LoginBody: Decodable {
        let username: String
        let password: String
    }

    func addPublicRoutes(to router: Router<AppRequestContext>) {
        /// Exchanges a username and password for a bearer token.
        router.post("/v1/auth/login") { request, context in
            let body = try await JSON.decode(LoginBody.self, from: request, context: context)
            let issued = try await services.sessions.login(
                username: body.username, password: body.password,
                clientAddress: ClientAddress.of(request, peer: context.clientAddress, trustedProxies: services.trustedProxies))
            return JSON.response(written: DTO.Token(token: issued.token, expiresAt: issued.expiresAt, employee: issued.employee))
        }
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Revokes the token used for this call.
        group.post("/auth/logout") { _, context in
            if let token = context.token { try await services.sessions.logout(token: token) }
            return Response(status: .noContent)
        }
    }
}

struct MeController {
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
            let key = RenderedYearViews.Key(employeeID: employee.id, year: year)
            let generation = context.commitGeneration
            if let generation, let body = services.yearViews.body(for: key, generation: generation, at: services.holidays.clock.now()) {
                return JSON.response(body)
            }
            let view = try await services.holidays.yearView(employeeID: employee.id, year: year)
            var json = JSONWriter()
            DTO.YearHolidays(
                year: view.year,
                requests: view.requests.map { DTO.Request($0, employee: nil, viewer: employee.actor, today: view.today) },
                balance: view.balance
            ).write(to: &json)
            let body = json.buffer
            if let generation { services.yearViews.store(body, of: view, for: key, generation: generation) }
            return JSON.response(body)
        }

        /// Requests days off; the server counts the working days and checks overlap and balance.
        group.post("/me/holidays") { request, context in
            let employee = try context.requireEmployee()
            let body = try await JSON.decode(NewHolidayBody.self, from: request, context: context)
            let created = try await services.holidays.createRequest(
                for: employee.id, start: try CalendarDate.parse(body.startDate, field: "startDate"),
                end: try CalendarDate.parse(body.endDate, field: "endDate"), comment: body.comment ?? "", actor: employee.actor)
            let today = try await services.holidays.today()
            return JSON.response(
                written: DTO.Request(created, employee: employee, viewer: employee.actor, today: today), status: .created,
                headers: [.location: "/v1/holidays/\(created.id)"])
        }
    }
}

struct HolidaysController {
    let services: Services

    /// Approve, revert and cancel take an optional note; reject takes the reason (`Rejection` in the spec).
    struct NoteBody: Decodable {
        let note: String?
    }

    struct RejectionBody: Decodable {
        let reason: String
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Admin: requests filtered by status, year and employee, by id, a page at a time.
        group.get("/holidays") { request, context in
            let admin = try context.requireAdmin()
            var filter = RequestFilter()
            if let text = request.uri.queryParameters.get("status") { filter.status = try HolidayStatus.parse(text, field: "status") }
            filter.year = try request.integerQuery("year", in: HolidayService.supportedYears)
            filter.employeeID = try request.integerQuery("employee", in: 1...Int(Int64.max)).map(Int64.init)
            filter.afterID = try request.integerQuery("after", in: 0...Int(Int64.max)).map(Int64.init)
            filter.limit = try request.integerQuery("limit", in: 1...200) ?? 50
            let page = try await services.database.requests(filter)
            let today = try await services.holidays.today()
            return JSON.response(written: DTO.RequestList(
                items: page.items.map { DTO.Request($0.request, employee: $0.employee, viewer: admin.actor, today: today) },
                total: page.total, nextAfter: page.nextAfterID))
        }

        /// One request with its per-year days, full history, and the requester's other requests and balances in
        /// the years it draws on, so one call serves the decision (its owner or an admin).
        group.get("/holidays/:id") { request, context in
            let viewer = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Holiday request")
            guard let detail = try await services.database.requestDetail(id: id, at: services.holidays.clock.now()),
                  HolidayRules.mayRead(holidaysOf: detail.request.employeeID, by: viewer.actor)
            else { throw SGError.notFound("Holiday request \(id) does not exist.") }
            let today = detail.today
            return JSON.response(written: DTO.RequestDetail(
                request: DTO.Request(detail.request, employee: detail.employee, viewer: viewer.actor, today: today),
                workingDaysByYear: detail.daysByYear,
                history: detail.events.map(DTO.Event.init),
                otherRequests: detail.otherRequests.map { DTO.Request($0, employee: nil, viewer: viewer.actor, today: today) },
                balances: detail.balances))
        }

        for action in HolidayAction.allCases {
            /// Moves a request: approve, reject (with a reason), revert (approved to pending) or cancel.
            group.post("/holidays/:id/\(action.rawValue)") { request, context in
                let actor = try context.requireEmployee()
                let id = try context.parameters.id("id", what: "Holiday request")
                // Without a body, a rejection still reaches the service, which names the missing reason.
                let note = action == .reject
                    ? try await JSON.decodeIfPresent(RejectionBody.self, from: request, context: context)?.reason ?? ""
                    : try await JSON.decodeIfPresent(NoteBody.self, from: request, context: context)?.note ?? ""
                let updated = try await services.holidays.perform(action, on: id, by: actor.actor, note: note)
                let today = try await services.holidays.today()
                return JSON.response(written: DTO.Request(updated, employee: nil, viewer: actor.actor, today: today))
            }
        }
    }
}

struct EmployeesController {
    let services: Services

    struct AllowanceBody: Decodable {
        /// Read as a number of any shape so that 1.5 or 1e300 get a 422 naming the field, not a parse error.
        let days: Double
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Admin: sets one employee's allowance for one year, overriding the company default.
        group.put("/employees/:id/allowances/:year") { request, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Employee")
            guard let year = context.parameters.get("year").flatMap({ Int($0) }), HolidayService.supportedYears.contains(year) else {
                throw SGError.invalid(field: "year", message: "'\(context.parameters.get("year") ?? "")' is not a year")
            }
            let body = try await JSON.decode(AllowanceBody.self, from: request, context: context)
            let days = try JSON.wholeDays(body.days, field: "days")
            let balance = try await services.holidays.setAllowance(employeeID: id, year: year, days: days, by: admin.actor)
            return JSON.response(written: balance)
        }

        /// One employee's balance for a year (default: this year): an admin, or the employee themself.
        group.get("/employees/:id/balance") { request, context in
            let viewer = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Employee")
            guard HolidayRules.mayRead(holidaysOf: id, by: viewer.actor) else {
                throw SGError.forbidden("Only an admin can read another employee's balance.")
            }
            let year = try await Self.year(request, services: services)
            return JSON.response(written: try await services.holidays.balance(employeeID: id, year: year))
        }

        /// The company's public holidays of a year (default: this year).
        group.get("/public-holidays") { request, _ in
            let year = try await Self.year(request, services: services)
            return JSON.response(written: DTO.PublicHolidays(holidays: try await services.database.publicHolidays(year: year)))
        }
    }

    /// The `year` query parameter, or the current year in the company's time zone.
    static func year(_ request: Request, services: Services) async throws -> Int {
        if let year = try request.integerQuery("year", in: HolidayService.supportedYears) { return year }
        return try await services.holidays.today().year
    }
}
