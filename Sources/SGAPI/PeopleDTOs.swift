import Foundation
import SGCore
import SGStore

/// Encodes nil as an explicit `null`: synthesized `Encodable` would leave the key out, and clients (and the
/// API description) rely on every key being present.
@propertyWrapper
struct Nullable<Value: Encodable>: Encodable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension DTO {
    /// Where a client loads an employee's photo. The `v` query names the photo's version, so a new photo is a
    /// new URL and no cache shows the old one.
    static func photoURL(_ profile: SGCore.Profile) -> String? {
        profile.photo.map { photoURL(employeeID: profile.employee.id, version: $0) }
    }

    static func photoURL(employeeID: Int64, version: PhotoVersion) -> String {
        "/v1/employees/\(employeeID)/photo?v=\(version.etag)"
    }

    /// The logged-in employee's own profile, private fields included.
    struct ProfileBody: Encodable {
        let id: Int64
        let username: String
        let name: String
        let surname: String
        let email: String
        let isAdmin: Bool
        let isActive: Bool
        @Nullable var position: String?
        @Nullable var birthDate: String?
        @Nullable var phone: String?
        @Nullable var twitter: String?
        @Nullable var linkedin: String?
        @Nullable var photoUrl: String?
        /// The fields this employee may change with PATCH /v1/me (the directory may hold others).
        let editableFields: [ProfileField]

        init(_ profile: SGCore.Profile, owned: Set<ProfileField>) {
            id = profile.employee.id
            username = profile.employee.username
            name = profile.employee.name
            surname = profile.employee.surname
            email = profile.employee.email
            isAdmin = profile.employee.isAdmin
            isActive = profile.employee.isActive
            position = profile.position
            birthDate = profile.birthDate?.description
            phone = profile.phone
            twitter = profile.twitter
            linkedin = profile.linkedin
            photoUrl = DTO.photoURL(profile)
            editableFields = ProfileRules.editableFields(owned: owned)
        }
    }

    /// What everyone may see about a colleague: no birth date, settings or devices.
    struct DirectoryEntry: Encodable {
        let id: Int64
        let username: String
        let name: String
        let surname: String
        let email: String
        let isActive: Bool
        @Nullable var position: String?
        @Nullable var phone: String?
        @Nullable var twitter: String?
        @Nullable var linkedin: String?
        @Nullable var photoUrl: String?

        init(_ profile: SGCore.Profile) {
            id = profile.employee.id
            username = profile.employee.username
            name = profile.employee.name
            surname = profile.employee.surname
            email = profile.employee.email
            isActive = profile.employee.isActive
            position = profile.position
            phone = profile.phone
            twitter = profile.twitter
            linkedin = profile.linkedin
            photoUrl = DTO.photoURL(profile)
        }
    }

    struct DirectoryList: Encodable {
        let items: [DirectoryEntry]
        /// Employees matching the search and filter, in all pages.
        let total: Int
        /// How many of those are active.
        let active: Int
        /// Pass as `after` to read the next page; null on the last page.
        @Nullable var nextAfter: Int64?
    }

    struct PhotoBody: Encodable {
        let photoUrl: String
        let etag: String
        let contentType: String
        let width: Int
        let height: Int
        let bytes: Int
    }

    struct EmployeeYear: JSONBody {
        /// The employee's `DirectoryEntry`, already encoded.
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

    struct NoticeRequest: Encodable {
        let id: Int64
        let startDate: String
        let endDate: String
        /// null when the notice reports a new request.
        @Nullable var from: HolidayStatus?
        let to: HolidayStatus
        /// The transition's note: the reason, for a rejection.
        let note: String
    }

    struct NoticeBody: Encodable {
        let id: Int64
        let kind: NoticeKind
        let title: String
        let body: String
        let pinned: Bool
        /// The last day a company notice is shown; null: until deleted (always null for personal notices).
        @Nullable var expiresOn: String?
        let author: String
        let createdAt: String
        let updatedAt: String
        /// Personal notices: whether the employee has read it; null for company notices.
        @Nullable var read: Bool?
        /// Personal notices: the request and the move they report; null for company notices.
        @Nullable var request: NoticeRequest?

        init(_ notice: Notice) {
            id = notice.id
            kind = notice.kind
            title = notice.title
            body = notice.body
            pinned = notice.pinned
            expiresOn = notice.expiresOn?.description
            author = notice.author
            createdAt = Timestamp.format(notice.createdAt)
            updatedAt = Timestamp.format(notice.updatedAt)
            read = notice.kind == .personal ? notice.readAt != nil : nil
            request = notice.transition.map {
                NoticeRequest(
                    id: $0.requestID, startDate: $0.startDate.description, endDate: $0.endDate.description, from: $0.from,
                    to: $0.to, note: $0.note)
            }
        }
    }

    struct NoticeList: Encodable {
        let items: [NoticeBody]
        let total: Int
        /// The caller's personal notices not yet read.
        let unread: Int
        /// An opaque cursor: pass as `after` to read the next page; null on the last page.
        @Nullable var nextAfter: String?
    }

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

    struct DeviceBody: Encodable {
        let token: String
        let platform: DevicePlatform
        let createdAt: String
        let updatedAt: String

        init(_ device: Device) {
            token = device.token
            platform = device.platform
            createdAt = Timestamp.format(device.createdAt)
            updatedAt = Timestamp.format(device.updatedAt)
        }
    }

    struct SettingsBody: Encodable {
        let notifications: Bool
        let devices: [DeviceBody]

        init(_ settings: NotificationSettings) {
            notifications = settings.notifications
            devices = settings.devices.map(DeviceBody.init)
        }
    }
}
