import Foundation
import Hummingbird
import SGCore

extension DTO {
    struct CompanyBody: Encodable {
        let name: String
        @Nullable var address: String?
        @Nullable var phone: String?
        @Nullable var email: String?
        @Nullable var website: String?
        /// ISO weekdays that are working days, 1 = Monday ... 7 = Sunday.
        let workingWeek: [Int]
        let defaultAllowance: Int
        /// The zone in which "today" is taken for every date rule.
        let timeZone: String
        /// At most this many unused days of a year carry into the next (0: none).
        let carryOverCap: Double
        /// The day ("MM-DD") of the next year after which carried days expire.
        let carryOverExpiry: String
        /// How an employee's allowance follows their contract (`ProRataPolicy`), and how it is rounded.
        let proRata: String
        let proRataRounding: String
        /// Extra days from years of service, and from when they count.
        let seniority: [Tier]
        let seniorityFrom: String
        /// How the year's allowance is earned by employees without a plan of their own.
        let accrual: AccrualPlanBody
        /// RSS or Atom addresses whose newest items the main screen shows.
        let feeds: [String]

        init(_ company: Company) {
            name = company.settings.name
            address = company.contact.address
            phone = company.contact.phone
            email = company.contact.email
            website = company.contact.website
            workingWeek = company.settings.workingWeek.weekdays.sorted()
            defaultAllowance = company.settings.defaultAllowance
            timeZone = company.settings.timeZoneIdentifier
            carryOverCap = company.settings.carryOver.cap.days
            carryOverExpiry = company.settings.carryOver.expiryCode
            proRata = company.settings.proRata.method.rawValue
            proRataRounding = company.settings.proRata.rounding.rawValue
            seniority = company.settings.seniority.tiers.map { Tier(years: $0.years, days: $0.days) }
            seniorityFrom = company.settings.seniority.from.rawValue
            accrual = AccrualPlanBody(company.settings.accrual)
            feeds = company.feeds
        }
    }

    /// `{period, credited, advance}`; `advance` is "none", "year" or a number of days.
    struct AccrualPlanBody: Encodable {
        let period: String
        let credited: String
        let advance: Advance

        enum Advance: Encodable {
            case name(String)
            case days(Int)

            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                switch self {
                case .name(let name): try container.encode(name)
                case .days(let days): try container.encode(days)
                }
            }
        }

        init(_ plan: AccrualPlan) {
            period = plan.period.rawValue
            credited = plan.credited.rawValue
            advance = switch plan.advance {
            case .none: .name("none")
            case .year: .name("year")
            case .days(let days): .days(days)
            }
        }
    }

    struct Tier: Encodable {
        let years: Int
        let days: Int
    }

    struct CompanyFeedBody: JSONBody {
        let items: [FeedItemBody]

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("items"); json.array(items) { json, item in json.value(item) }
            }
        }
    }

    /// A news item in plain text; `link` is http(s) or null, `published` null when the feed gave no date.
    struct FeedItemBody: JSONBody {
        let item: FeedItem

        init(_ item: FeedItem) {
            self.item = item
        }

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("link"); json.value(item.link)
                json.key("published"); json.value(item.published)
                json.key("source"); json.value(item.source)
                json.key("summary"); json.value(item.summary)
                json.key("title"); json.value(item.title)
            }
        }
    }

    struct PublicHolidayBody: Encodable {
        let date: String
        let name: String

        init(_ holiday: PublicHoliday) {
            date = holiday.date.description
            name = holiday.name
        }
    }

    struct HolidayCalendarBody: Encodable {
        let id: Int64
        let name: String
        let employees: Int

        init(_ calendar: HolidayCalendar) {
            id = calendar.id
            name = calendar.name
            employees = calendar.employeeCount
        }
    }

    /// Liveness says only that the server runs: which migrations it has is no one's business but the operator's.
    struct Health: Encodable {
        let status: String
        /// Kept for the clients of 2.1 and earlier, which require it; always empty, since an unauthenticated answer
        /// should not tell which version runs (`sgadmin check` and the metrics say).
        let schema: [String] = []
    }
}
