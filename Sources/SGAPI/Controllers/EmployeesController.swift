import Foundation
import Hummingbird
import SGCore

/// Everyone in the company: the people list, a colleague's profile and photo, and an employee's holidays,
/// balance and allowances.
struct EmployeesController {
    let services: Services

    struct AllowanceBody: JSONObjectBody {
        static let fields = ["days"]

        /// Read as a number of any shape so that 1.5 or 1e300 get a 422 naming the field, not a parse error.
        let days: Double
    }

    /// `{days, reason}`: days in steps of 0.5, negative to remove.
    struct AdjustmentBody: JSONObjectBody {
        static let fields = ["days", "reason"]
        static let what = "an adjustment field"

        let days: HalfDays
        let reason: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            let value = try container.decode(Double.self, forKey: AnyKey("days"))
            guard let days = HalfDays(days: value, limit: 366) else {
                throw SGError.invalid(field: "days", message: "must be a number of days between -366 and 366, in steps of 0.5")
            }
            self.days = days
            reason = try container.decode(String.self, forKey: AnyKey("reason"))
        }
    }

    /// `{workingWeek}`: ISO weekdays, or null for the company's week.
    struct WorkingWeekBody: JSONObjectBody {
        static let fields = ["workingWeek"]
        static let what = "a working week field"

        let week: WorkingWeek?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            let key = AnyKey("workingWeek")
            guard container.contains(key) else { throw SGError.invalid(field: "workingWeek", message: "is required (null: the company's)") }
            week = try container.decodeNil(forKey: key) ? nil : try CompanyRules.workingWeek(try container.decode([Int].self, forKey: key))
        }
    }

    /// `POST /v1/employees`: a local account and its first password.
    struct NewEmployeeBody: JSONObjectBody {
        static let fields = ["username", "name", "surname", "email", "password", "isAdmin", "employmentStart", "employmentEnd"]
        static let what = "a field of a new employee"

        var employee: NewEmployee
        let password: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            employee = NewEmployee(
                username: try container.required(String.self, "username"), name: try container.required(String.self, "name"),
                surname: try container.required(String.self, "surname"), email: try container.required(String.self, "email"),
                isAdmin: try container.optional(Bool.self, "isAdmin") ?? false, passwordHash: nil)
            employee.employment = Employment(
                start: try container.dateChange("employmentStart").applied(to: nil),
                end: try container.dateChange("employmentEnd").applied(to: nil))
            password = try container.required(String.self, "password")
        }
    }

    /// `PATCH /v1/employees/{id}`: absent keys are kept, `null` clears the position, the phone or an employment date,
    /// and gives the employee the company's accrual plan.
    struct EmployeePatchBody: JSONObjectBody {
        static let fields = EmployeeChange.profileFields.map(\.rawValue) + ["isActive", "isAdmin", "employmentStart", "employmentEnd", "accrual"]
        static let what = "an employee field an admin can change"

        var change = EmployeeChange()

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            change.profile.name = try container.change(String.self, "name")
            change.profile.surname = try container.change(String.self, "surname")
            change.profile.email = try container.change(String.self, "email")
            change.profile.position = try container.change(String.self, "position")
            change.profile.phone = try container.change(String.self, "phone")
            change.isActive = try container.optional(Bool.self, "isActive")
            change.isAdmin = try container.optional(Bool.self, "isAdmin")
            change.employment = EmploymentChange(
                start: try container.dateChange("employmentStart"), end: try container.dateChange("employmentEnd"))
            if container.contains(AnyKey("accrual")) {
                change.accrual = try container.decodeNil(forKey: AnyKey("accrual"))
                    ? .clear : .set(try container.decode(CompanyController.AccrualBody.self, forKey: AnyKey("accrual")).plan)
            }
        }
    }

    /// The `{year}` of an allowance path: a year, or a 422.
    static func year(_ context: AppRequestContext) throws -> Int {
        guard let year = context.parameters.get("year").flatMap({ Int($0) }), HolidayService.supportedYears.contains(year) else {
            throw SGError.invalid(field: "year", message: "'\(context.parameters.get("year") ?? "")' is not a year")
        }
        return year
    }

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        /// Everyone, in list order (surname, name, id; case and accents ignored), searchable, a page at a time.
        group.get("/employees") { request, context in
            _ = try context.requireEmployee()
            var query = PeopleQuery()
            if let q = request.uri.queryParameters.get("q") {
                query.search = String(q)
            }
            query.active = try request.booleanQuery("active")
            query.afterID = try request.integerQuery("after", in: 1...Int(Int64.max)).map(Int64.init)
            query.limit = try request.integerQuery("limit", in: 1...PeopleQuery.maximumLimit) ?? 50
            let page = try await services.people.list(query)
            return try JSON.response(DTO.ColleagueList(
                items: page.items.map(DTO.Colleague.init), total: page.total, active: page.active,
                nextAfter: page.nextAfterID))
        }

        /// One colleague's public profile.
        group.get("/employees/:id") { _, context in
            _ = try context.requireEmployee()
            let profile = try await services.people.profile(employeeID: try context.parameters.id("id", what: "Employee"))
            return try JSON.response(DTO.Colleague(profile))
        }

        /// Admin: an employee as the admin screens edit them: the profile with the admin role.
        group.get("/employees/:id/record") { _, context in
            _ = try context.requireAdmin()
            let profile = try await services.people.profile(employeeID: try context.parameters.id("id", what: "Employee"))
            return try JSON.response(DTO.EmployeeRecord(profile))
        }

        /// Admin: an employee's sessions (logins on their devices), most recently used first.
        group.get("/employees/:id/sessions") { _, context in
            _ = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Employee")
            _ = try await services.people.profile(employeeID: id)
            let sessions = try await services.sessions.sessions(employeeID: id)
            return try JSON.response(DTO.Sessions(items: sessions.map { DTO.SessionBody($0, current: context.sessionID) }))
        }

        /// Admin: ends every session of an employee (a lost phone, a shared computer): their tokens stop at once.
        group.delete("/employees/:id/sessions") { _, context in
            _ = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Employee")
            _ = try await services.people.profile(employeeID: id)
            // The admin's own current session is kept when they end their own.
            _ = try await services.sessions.endOtherSessions(employeeID: id, current: context.sessionID)
            return Response(status: .noContent)
        }

        /// Admin: adds a local account, while logins are checked against the local accounts.
        group.post("/employees") { request, context in
            let admin = try context.requireAdmin()
            let body = try await JSON.decode(NewEmployeeBody.self, from: request, context: context)
            let employee = try await services.core.accounts.addLocalAccount(
                body.employee, password: body.password, passwords: services.passwords, directory: services.sessions.directory,
                by: admin.actor)
            let profile = try await services.people.profile(employeeID: employee.id)
            return try JSON.response(
                DTO.EmployeeRecord(profile), status: .created, headers: [.location: "/v1/employees/\(employee.id)"])
        }

        /// Admin: changes an employee's HR fields, admin role or activity, all or nothing.
        group.patch("/employees/:id") { request, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Employee")
            let body = try await JSON.decode(EmployeePatchBody.self, from: request, context: context)
            let profile = try await services.core.accounts.update(
                employeeID: id, body.change, by: admin.actor, directory: services.sessions.directory)
            return try JSON.response(DTO.EmployeeRecord(profile))
        }

        /// An employee's photo. With `?v=` naming the current version it may be cached for good; without it,
        /// clients revalidate with If-None-Match (304 when unchanged).
        group.get("/employees/:id/photo") { request, context in
            _ = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Employee")
            let ifNoneMatch = request.headers[.ifNoneMatch]
            let photo = try await services.people.photo(employeeID: id) { version in
                !EntityTags.noneMatch(ifNoneMatch, etag: version.etag)
            }
            let versioned = request.uri.queryParameters.get("v").map { String($0) } == photo.version.etag
            var headers: HTTPFields = [
                .eTag: EntityTags.quoted(photo.version.etag),
                .cacheControl: versioned ? "private, max-age=31536000, immutable" : "private, no-cache",
            ]
            guard let data = photo.data else { return Response(status: .notModified, headers: headers) }
            headers[.contentType] = photo.version.contentType
            headers[.init("X-Content-Type-Options")!] = "nosniff"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
        }

        /// Admin (or the employee themself, or those who decide their requests): any employee's requests touching a year and that year's balance,
        /// inactive employees included, with the years that hold data.
        group.get("/employees/:id/holidays") { request, context in
            let viewer = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Employee")
            let found = try await services.holidays.employeeYear(
                employeeID: id, year: try request.integerQuery("year", in: HolidayService.supportedYears), by: viewer.actor)
            let profile = try await services.people.profile(employeeID: id)
            let view = found.view
            return JSON.response(written: DTO.EmployeeYear(
                employee: try JSON.encoder.encode(DTO.Colleague(profile)), year: view.year,
                requests: view.requests.map {
                    DTO.Request($0, employee: nil, viewer: viewer.actor, today: view.today, approval: view.approval)
                },
                balance: view.balance, years: found.years))
        }

        /// One employee's balance for a year (default: this year): an admin, the employee themself, or those who
        /// decide their requests.
        group.get("/employees/:id/balance") { request, context in
            let viewer = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Employee")
            let year = try await services.company.year(try request.integerQuery("year", in: HolidayService.supportedYears))
            return JSON.response(written: try await services.holidays.balance(employeeID: id, year: year, by: viewer.actor))
        }

        /// Admin: sets one employee's allowance for one year, overriding the company default.
        group.put("/employees/:id/allowances/:year") { request, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Employee")
            let year = try Self.year(context)
            let body = try await JSON.decode(AllowanceBody.self, from: request, context: context)
            let days = try JSON.wholeDays(body.days, field: "days")
            let balance = try await services.holidays.setAllowance(employeeID: id, year: year, days: days, by: admin.actor)
            return JSON.response(written: balance)
        }

        /// Admin: adds days to (or, negative, removes them from) one employee-year, with a reason.
        group.post("/employees/:id/allowances/:year/adjustments") { request, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Employee")
            let year = try Self.year(context)
            let body = try await JSON.decode(AdjustmentBody.self, from: request, context: context)
            let (change, balance) = try await services.holidays.adjustAllowance(
                employeeID: id, year: year, days: body.days, reason: body.reason, by: admin.actor)
            return JSON.response(written: DTO.Adjustment(change: change, balance: balance), status: .created)
        }

        /// The employee's working weeks: the company's, and their own from each day on (the employee or an admin).
        group.get("/employees/:id/working-weeks") { _, context in
            let viewer = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Employee")
            let weeks = try await services.holidays.workingWeeks(employeeID: id, by: viewer.actor)
            return try JSON.response(DTO.WorkingWeeksBody(company: weeks.company, changes: weeks.changes))
        }

        /// Admin: the employee's own working week from a day (today or later) on; `workingWeek: null` goes back to
        /// the company's.
        group.put("/employees/:id/working-weeks/:startsOn") { request, context in
            let admin = try context.requireAdmin()
            let id = try context.parameters.id("id", what: "Employee")
            let startsOn = try CalendarDate.parse(context.parameters.get("startsOn") ?? "", field: "startsOn")
            let body = try await JSON.decode(WorkingWeekBody.self, from: request, context: context)
            let changes = try await services.holidays.setWorkingWeek(employeeID: id, from: startsOn, week: body.week, by: admin.actor)
            let weeks = try await services.holidays.workingWeeks(employeeID: id, by: admin.actor)
            return try JSON.response(DTO.WorkingWeeksBody(company: weeks.company, changes: changes))
        }

        /// The allowance history of one employee-year: the employee themself or an admin.
        group.get("/employees/:id/allowances/:year/changes") { _, context in
            let viewer = try context.requireEmployee()
            let id = try context.parameters.id("id", what: "Employee")
            let year = try Self.year(context)
            let changes = try await services.holidays.allowanceChanges(employeeID: id, year: year, by: viewer.actor)
            return JSON.response(written: DTO.AllowanceChanges(changes: changes))
        }
    }
}
