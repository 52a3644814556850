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

        init(_ company: Company) {
            name = company.settings.name
            address = company.contact.address
            phone = company.contact.phone
            email = company.contact.email
            website = company.contact.website
            workingWeek = company.settings.workingWeek.weekdays.sorted()
            defaultAllowance = company.settings.defaultAllowance
            timeZone = company.settings.timeZoneIdentifier
        }
    }

    struct PublicHolidays: JSONBody {
        let holidays: [PublicHoliday]

        func write(to json: inout JSONWriter) {
            json.array(holidays) { json, holiday in
                json.object { json in
                    json.key("date"); json.value(holiday.date)
                    json.key("name"); json.value(holiday.name)
                }
            }
        }
    }

    struct Health: JSONBody {
        let status: String
        let schema: [String]

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("schema"); json.array(schema) { json, migration in json.value(migration) }
                json.key("status"); json.value(status)
            }
        }
    }
}
