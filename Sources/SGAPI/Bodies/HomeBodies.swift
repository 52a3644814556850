import Foundation
import SGCore

extension DTO {
    /// GET /v1/home. The profile and the next holiday are encoded; the other parts have their own writers. Written in
    /// key order.
    struct Home: JSONBody {
        struct Parts {
            let employee: Data
            let nextHoliday: Data
            let away: Away
            let notices: NoticeList
            let feed: [FeedItemBody]

            init(employee: ProfileBody, nextHoliday: NextAbsence?, away: Away, notices: NoticeList, feed: [FeedItemBody]) throws {
                self.employee = try JSON.encoder.encode(employee)
                self.nextHoliday = try nextHoliday.map { try JSON.encoder.encode($0) } ?? Data("null".utf8)
                self.away = away
                self.notices = notices
                self.feed = feed
            }
        }

        let today: CalendarDate
        let balance: Balance
        let parts: Parts

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("away"); json.value(parts.away)
                json.key("balance"); json.value(balance)
                json.key("employee"); json.value(encoded: parts.employee)
                json.key("feed"); json.array(parts.feed) { json, item in json.value(item) }
                json.key("nextHoliday"); json.value(encoded: parts.nextHoliday)
                json.key("notices"); json.value(parts.notices)
                json.key("today"); json.value(today)
            }
        }
    }

    /// Who is away from today to a week ahead: the employees who leave first first. `more`: more employees are away
    /// than `items` holds (`GET /v1/absences` lists them all).
    struct Away: JSONBody {
        let upcoming: UpcomingAbsences

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("from"); json.value(upcoming.from)
                json.key("items"); json.array(upcoming.away) { json, row in json.value(AbsenceRow(row)) }
                json.key("more"); json.value(upcoming.more)
                json.key("to"); json.value(upcoming.to)
            }
        }
    }

    /// The caller's own next approved absence: under way today, or the first to come.
    struct NextAbsence: Encodable {
        let requestId: Int64
        let startDate: String
        let endDate: String
        let startHalf: DayHalf
        let endHalf: DayHalf
        let workingDays: Double
        let leaveType: String

        init(_ request: FeedRequest) {
            requestId = request.absence.requestID
            startDate = request.absence.period.start.description
            endDate = request.absence.period.end.description
            startHalf = request.absence.period.startHalf
            endHalf = request.absence.period.endHalf
            workingDays = request.duration.days
            leaveType = request.absence.leaveTypeName
        }
    }
}
