import Foundation
import Hummingbird
import SGCore
import SGStore

/// Response bodies. Dates are "YYYY-MM-DD"; instants are UTC ISO 8601.
enum DTO {
    struct EmployeeRef: Encodable {
        let id: Int64
        let username: String
        let name: String
        let surname: String

        init(_ employee: Employee) {
            id = employee.id
            username = employee.username
            name = employee.name
            surname = employee.surname
        }
    }

    struct EmployeeBody: Encodable {
        let id: Int64
        let username: String
        let name: String
        let surname: String
        let email: String
        let isAdmin: Bool
        let isActive: Bool

        init(_ employee: Employee) {
            id = employee.id
            username = employee.username
            name = employee.name
            surname = employee.surname
            email = employee.email
            isAdmin = employee.isAdmin
            isActive = employee.isActive
        }
    }

    struct Request: Encodable {
        let id: Int64
        let employee: EmployeeRef?
        let employeeId: Int64
        let startDate: String
        let endDate: String
        let workingDays: Int
        let status: HolidayStatus
        let comment: String
        let createdAt: String
        let updatedAt: String
        let decidedBy: String?
        let decidedAt: String?
        /// The moves the caller can make on this request now.
        let allowedActions: [HolidayAction]

        init(_ request: HolidayRequest, employee: Employee?, viewer: Actor, today: CalendarDate) {
            id = request.id
            self.employee = employee.map(EmployeeRef.init)
            employeeId = request.employeeID
            startDate = request.startDate.description
            endDate = request.endDate.description
            workingDays = request.workingDays
            status = request.status
            comment = request.comment
            createdAt = Timestamp.format(request.createdAt)
            updatedAt = Timestamp.format(request.updatedAt)
            decidedBy = request.decidedBy
            decidedAt = request.decidedAt.map(Timestamp.format)
            allowedActions = HolidayRules.allowedActions(on: request, by: viewer, today: today)
        }

        enum CodingKeys: String, CodingKey {
            case id, employee, employeeId, startDate, endDate, workingDays, status, comment, createdAt, updatedAt,
                 decidedBy, decidedAt, allowedActions
        }

        /// `decidedBy` and `decidedAt` are always present (null until a decision); `employee` only in lists and detail.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encodeIfPresent(employee, forKey: .employee)
            try container.encode(employeeId, forKey: .employeeId)
            try container.encode(startDate, forKey: .startDate)
            try container.encode(endDate, forKey: .endDate)
            try container.encode(workingDays, forKey: .workingDays)
            try container.encode(status, forKey: .status)
            try container.encode(comment, forKey: .comment)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(updatedAt, forKey: .updatedAt)
            try container.encode(decidedBy, forKey: .decidedBy)
            try container.encode(decidedAt, forKey: .decidedAt)
            try container.encode(allowedActions, forKey: .allowedActions)
        }
    }

    struct Event: Encodable {
        let id: Int64
        let from: HolidayStatus?
        let to: HolidayStatus
        let actor: String
        let at: String
        let note: String

        init(_ event: HolidayEvent) {
            id = event.id
            from = event.from
            to = event.to
            actor = event.actor
            at = Timestamp.format(event.at)
            note = event.note
        }

        enum CodingKeys: String, CodingKey { case id, from, to, actor, at, note }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(from, forKey: .from)  // null for the creation
            try container.encode(to, forKey: .to)
            try container.encode(actor, forKey: .actor)
            try container.encode(at, forKey: .at)
            try container.encode(note, forKey: .note)
        }
    }

    struct RequestDetail: Encodable {
        let request: Request
        let workingDaysByYear: [String: Int]
        let history: [Event]
        /// The requester's other requests in the years this one draws on, for the decision.
        let otherRequests: [Request]
        /// The requester's balance in each year this request draws on.
        let balances: [Balance]

        func encode(to encoder: any Encoder) throws {
            // Flatten: the request's fields, plus its per-year split, history and context.
            try request.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(workingDaysByYear, forKey: .workingDaysByYear)
            try container.encode(history, forKey: .history)
            try container.encode(otherRequests, forKey: .otherRequests)
            try container.encode(balances, forKey: .balances)
        }

        enum Keys: String, CodingKey { case workingDaysByYear, history, otherRequests, balances }
    }

    struct RequestList: Encodable {
        let items: [Request]
        let total: Int
        /// Pass as `after` to read the next page; null on the last page.
        let nextAfter: Int64?

        enum CodingKeys: String, CodingKey { case items, total, nextAfter }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(items, forKey: .items)
            try container.encode(total, forKey: .total)
            try container.encode(nextAfter, forKey: .nextAfter)  // null on the last page
        }
    }

    struct YearHolidays: Encodable {
        let year: Int
        let requests: [Request]
        let balance: Balance
    }

    struct Token: Encodable {
        let token: String
        let tokenType = "Bearer"
        let expiresAt: String
        let employee: EmployeeBody
    }

    struct Health: Encodable {
        let status: String
        let schema: [String]
    }
}
