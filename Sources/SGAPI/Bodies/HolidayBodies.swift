import Foundation
import Hummingbird
import SGCore

/// Response bodies. Dates are "YYYY-MM-DD"; instants are UTC ISO 8601. Keys are written in sorted order.
enum DTO {
    struct Request: JSONBody {
        let request: HolidayRequest
        /// Present in lists and detail only.
        let employee: Employee?
        /// The moves the caller can make on this request now.
        let allowedActions: [HolidayAction]
        /// Who is asked to decide it now (`Approval.asked`).
        let approvers: [Employee]

        init(_ request: HolidayRequest, employee: Employee?, viewer: Actor, today: CalendarDate, approval: ApprovalContext) {
            self.request = request
            self.employee = employee
            allowedActions = HolidayRules.allowedActions(on: request, by: viewer, today: today, approval: approval)
            approvers = Approval.asked(for: request, approval)
        }

        init(_ decidable: DecidableRequest, employee: Employee?, viewer: Actor, today: CalendarDate) {
            self.init(decidable.request, employee: employee, viewer: viewer, today: today, approval: decidable.approval)
        }

        func write(to json: inout JSONWriter) {
            json.object { json in writeFields(to: &json) }
        }

        /// The request's fields; a detail adds its history and per-year days, each at its place in the key order.
        /// `decidedBy` and `decidedAt` are always present (null until a decision).
        func writeFields(
            to json: inout JSONWriter, history: [Event]? = nil, workingDaysByYear: [Int: HalfDays]? = nil,
            otherRequests: [Request]? = nil, balances: [Balance]? = nil
        ) {
            json.key("allowedActions"); json.array(allowedActions) { json, action in json.value(action.rawValue) }
            json.key("approvers"); json.employeeRefs(approvers)
            if let balances { json.key("balances"); json.array(balances) { json, balance in json.value(balance) } }
            json.key("comment"); json.value(request.comment)
            json.key("createdAt"); json.value(request.createdAt)
            json.key("decidedAt"); json.value(request.decidedAt)
            json.key("decidedBy"); json.value(request.decidedBy)
            if let employee { json.key("employee"); json.value(EmployeeRef(employee)) }
            json.key("employeeId"); json.value(request.employeeID)
            json.key("endDate"); json.value(request.endDate)
            json.key("endHalf"); json.value(request.endHalf.rawValue)
            if let history { json.key("history"); json.array(history) { json, event in json.value(event) } }
            json.key("id"); json.value(request.id)
            json.key("leaveTypeId"); json.value(request.leaveTypeID)
            json.key("leaveTypeName"); json.value(request.leaveTypeName)
            if let otherRequests { json.key("otherRequests"); json.array(otherRequests) { json, other in json.value(other) } }
            json.key("startDate"); json.value(request.startDate)
            json.key("startHalf"); json.value(request.startHalf.rawValue)
            json.key("status"); json.value(request.status.rawValue)
            json.key("updatedAt"); json.value(request.updatedAt)
            json.key("workingDays"); json.value(request.duration)
            if let workingDaysByYear {
                json.key("workingDaysByYear")
                json.object { json in
                    // Years have four digits, so numeric order is the sorted order of their keys.
                    for (year, days) in workingDaysByYear.sorted(by: { $0.key < $1.key }) {
                        json.key(dynamic: String(year)); json.value(days)
                    }
                }
            }
        }
    }

    struct Event: JSONBody {
        let event: HolidayEvent

        init(_ event: HolidayEvent) { self.event = event }

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("actor"); json.value(event.actor)
                json.key("at"); json.value(event.at)
                json.key("from"); json.value(event.from?.rawValue)  // null for the creation
                json.key("id"); json.value(event.id)
                json.key("note"); json.value(event.note)
                json.key("to"); json.value(event.to.rawValue)
            }
        }
    }

    /// A request flattened with its per-year split and history.
    struct RequestDetail: JSONBody {
        let request: Request
        let workingDaysByYear: [Int: HalfDays]
        let history: [Event]
        /// The requester's other requests in the years this one draws on, for the decision.
        let otherRequests: [Request]
        /// The requester's balance in each year this request draws on.
        let balances: [Balance]

        func write(to json: inout JSONWriter) {
            json.object { json in
                request.writeFields(
                    to: &json, history: history, workingDaysByYear: workingDaysByYear, otherRequests: otherRequests,
                    balances: balances)
            }
        }
    }

    struct RequestList: JSONBody {
        let items: [Request]
        let total: Int
        /// Pass as `after` to read the next page; null on the last page.
        let nextAfter: Int64?

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("items"); json.array(items) { json, item in json.value(item) }
                json.key("nextAfter"); json.value(nextAfter)
                json.key("total"); json.value(total)
            }
        }
    }

    struct YearHolidays: JSONBody {
        let year: Int
        let requests: [Request]
        let balance: Balance

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("balance"); json.value(balance)
                json.key("requests"); json.array(requests) { json, request in json.value(request) }
                json.key("year"); json.value(year)
            }
        }
    }

    struct EmployeeYear: JSONBody {
        /// The employee's `Colleague` body, already encoded.
        let employee: Data
        let year: Int
        let requests: [Request]
        let balance: Balance
        /// Years with requests or an allowance for this employee, ascending.
        let years: [Int]

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("balance"); json.value(balance)
                json.key("employee"); json.value(encoded: employee)
                json.key("requests"); json.array(requests) { json, request in json.value(request) }
                json.key("year"); json.value(year)
                json.key("years"); json.array(years) { json, year in json.value(year) }
            }
        }
    }
}

/// One entry of an allowance history: for `set`, `days` is the year's new allowance; for `adjust`, the days added
/// (negative: removed).
extension AllowanceChange: JSONBody {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("actor"); json.value(actor)
            json.key("at"); json.value(at)
            json.key("days"); json.value(days)
            json.key("id"); json.value(id)
            json.key("kind"); json.value(kind.rawValue)
            json.key("reason"); json.value(reason)
            json.key("year"); json.value(year)
        }
    }
}

extension DTO {
    /// What a request would be, as `POST /v1/me/holidays/preview` answers: no id, nothing written.
    struct Preview: JSONBody {
        let preview: RequestPreview

        func write(to json: inout JSONWriter) {
            let request = preview.request
            json.object { json in
                json.key("approvers"); json.employeeRefs(preview.approvers)
                json.key("balances"); json.array(preview.balancesAfter) { json, balance in json.value(balance) }
                json.key("endDate"); json.value(request.endDate)
                json.key("endHalf"); json.value(request.endHalf.rawValue)
                json.key("leaveTypeId"); json.value(request.leaveTypeID)
                json.key("leaveTypeName"); json.value(request.leaveTypeName)
                json.key("startDate"); json.value(request.startDate)
                json.key("startHalf"); json.value(request.startHalf.rawValue)
                json.key("status"); json.value(request.status.rawValue)
                json.key("workingDays"); json.value(request.duration)
                json.key("workingDaysByYear")
                json.object { json in
                    for (year, days) in preview.daysByYear.sorted(by: { $0.key < $1.key }) {
                        json.key(dynamic: String(year)); json.value(days)
                    }
                }
            }
        }
    }
}

extension Balance: JSONBody {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("accrual")
            if let plan = accrual?.plan { json.accrualPlan(plan) } else { json.null() }
            json.key("adjusted"); json.value(adjusted)
            json.key("allowance"); json.value(allowance)
            json.key("allowanceFormula"); json.value(allowanceFormula)
            json.key("approved"); json.value(approved)
            json.key("carriedOver"); json.value(carriedOver)
            json.key("carryOverExpiresOn"); json.value(carryOverExpiresOn?.description)
            json.key("earned"); json.value(accrual?.earned)
            json.key("expired"); json.value(expired)
            json.key("expiring"); json.value(expiring)
            json.key("pending"); json.value(pending)
            json.key("remaining"); json.value(remaining)
            json.key("requestable"); json.value(requestable)
            json.key("year"); json.value(year)
        }
    }
}

extension JSONWriter {
    /// `{advance, credited, period}`: the fields of `DTO.AccrualPlanBody`, which the company's settings encode.
    mutating func accrualPlan(_ plan: AccrualPlan) {
        let body = DTO.AccrualPlanBody(plan)
        object { json in
            json.key("advance")
            switch body.advance {
            case .name(let name): json.value(name)
            case .days(let days): json.value(days)
            }
            json.key("credited"); json.value(body.credited)
            json.key("period"); json.value(body.period)
        }
    }
}

extension DTO {
    /// An allowance history, oldest first.
    struct AllowanceChanges: JSONBody {
        let changes: [AllowanceChange]

        func write(to json: inout JSONWriter) {
            json.array(changes) { json, change in json.value(change) }
        }
    }

    /// An adjustment just made, and the balance it leaves.
    struct Adjustment: JSONBody {
        let change: AllowanceChange
        let balance: Balance

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("balance"); json.value(balance)
                json.key("change"); json.value(change)
            }
        }
    }
}

extension DTO {
    /// The company's week and the employee's own, each from the day it starts.
    struct WorkingWeeksBody: Encodable {
        struct Change: Encodable {
            let startsOn: String
            /// ISO weekdays; null: the company's week again.
            @Nullable var workingWeek: [Int]?
            let setBy: String
            let setAt: String
        }

        let companyWorkingWeek: [Int]
        let changes: [Change]

        init(company: WorkingWeek, changes: [WorkingWeekChange]) {
            companyWorkingWeek = company.weekdays.sorted()
            self.changes = changes.map {
                Change(startsOn: $0.startsOn.description, workingWeek: $0.week.map { $0.weekdays.sorted() }, setBy: $0.setBy,
                       setAt: Timestamp.format($0.setAt))
            }
        }
    }
}
