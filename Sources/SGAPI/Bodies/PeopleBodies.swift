import Foundation
import SGCore

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

    /// The logged-in employee's own profile: what an admin sees, and the private fields.
    struct ProfileBody: Encodable {
        let record: EmployeeRecord
        @Nullable var birthDate: String?
        let language: Language
        /// The fields this employee may change with PATCH /v1/me (the directory may hold others).
        let editableFields: [ProfileField]

        init(_ profile: SGCore.Profile, owned: Set<ProfileField>) {
            record = EmployeeRecord(profile)
            birthDate = profile.birthDate?.description
            language = profile.language
            editableFields = ProfileRules.editableFields(owned: owned)
        }

        private enum CodingKeys: String, CodingKey { case birthDate, language, editableFields }

        /// One flat object: the record's keys and these, sorted together by the encoder.
        func encode(to encoder: any Encoder) throws {
            try record.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(_birthDate, forKey: .birthDate)
            try container.encode(language, forKey: .language)
            try container.encode(editableFields, forKey: .editableFields)
        }
    }

    /// What an admin sees of an employee: the colleague's fields and the admin role.
    struct EmployeeRecord: Encodable {
        let colleague: Colleague
        let isAdmin: Bool
        @Nullable var employmentStart: String?
        @Nullable var employmentEnd: String?
        /// The employee's own accrual plan; null for the company's.
        let accrual: AccrualPlan?

        init(_ profile: SGCore.Profile) {
            colleague = Colleague(profile)
            isAdmin = profile.employee.isAdmin
            employmentStart = profile.employment.start?.description
            employmentEnd = profile.employment.end?.description
            accrual = profile.accrual
        }

        private enum CodingKeys: String, CodingKey { case isAdmin, employmentStart, employmentEnd, accrual }

        func encode(to encoder: any Encoder) throws {
            try colleague.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(isAdmin, forKey: .isAdmin)
            try container.encode(_employmentStart, forKey: .employmentStart)
            try container.encode(_employmentEnd, forKey: .employmentEnd)
            if let accrual { try container.encode(AccrualPlanBody(accrual), forKey: .accrual) } else { try container.encodeNil(forKey: .accrual) }
        }
    }

    /// What everyone may see about a colleague: no birth date, settings or devices.
    struct Colleague: Encodable {
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

    struct ColleagueList: Encodable {
        let items: [Colleague]
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
}
