import Foundation

/// The fields of an employee's profile, named as in the API.
public enum ProfileField: String, Sendable, Codable {
    case name, surname, email, position, birthDate, phone, twitter, linkedin, language

    /// What an employee may change about themself, unless their directory holds it.
    public static let employeeEditable: [ProfileField] = [.name, .surname, .position, .birthDate, .phone, .twitter, .linkedin, .language]
}

/// The current version of an employee's photo: its ETag (a digest of the bytes) changes with every new photo.
public struct PhotoVersion: Sendable, Equatable {
    public var etag: String
    public var contentType: String

    public init(etag: String, contentType: String) {
        self.etag = etag
        self.contentType = contentType
    }
}

/// Everything the clients show about an employee. `birthDate` is private to the employee.
public struct Profile: Sendable, Equatable {
    public var employee: Employee
    public var position: String?
    public var birthDate: CalendarDate?
    public var phone: String?
    public var twitter: String?
    public var linkedin: String?
    public var photo: PhotoVersion?
    /// What the server's messages to them (push) are written in; private to the employee.
    public var language: Language
    /// When they are employed: the employee's and the admins' to read, an admin's to change (`EmploymentChange`).
    public var employment: Employment
    /// Their own accrual plan, an admin's to set; nil for the company's.
    public var accrual: AccrualPlan?

    public init(
        employee: Employee, position: String? = nil, birthDate: CalendarDate? = nil, phone: String? = nil,
        twitter: String? = nil, linkedin: String? = nil, photo: PhotoVersion? = nil, language: Language = .en,
        employment: Employment = Employment(), accrual: AccrualPlan? = nil
    ) {
        self.accrual = accrual
        self.language = language
        self.employment = employment
        self.employee = employee
        self.position = position
        self.birthDate = birthDate
        self.phone = phone
        self.twitter = twitter
        self.linkedin = linkedin
        self.photo = photo
    }
}

/// A partial update of a profile as received, not yet checked. Text is raw; `ProfileRules.apply` checks it.
public struct ProfilePatch: Sendable, Equatable {
    public var name: Change<String> = .keep
    public var surname: Change<String> = .keep
    /// Only an admin changes the e-mail address (`EmployeeChange`); the employee's own PATCH never sets it.
    public var email: Change<String> = .keep
    public var position: Change<String> = .keep
    public var birthDate: Change<String> = .keep
    public var phone: Change<String> = .keep
    public var twitter: Change<String> = .keep
    public var linkedin: Change<String> = .keep
    public var language: Change<String> = .keep

    public init() {}
}

/// The profile rules: what each field accepts, and that fields the directory holds are not changed here.
public enum ProfileRules {
    /// The refusal of a change to `field`, which the company directory of `kind` holds.
    public static func heldByDirectory(_ field: String, kind: String) -> SGError {
        SGError.invalid(
            field: field,
            message: "is held by the company directory (\(kind)) and cannot be changed here; it changes in the directory and shows at the next login")
    }

    public static let maximumNameLength = 100
    public static let maximumPositionLength = 100
    public static let earliestBirthYear = 1900

    /// The profile after `patch`, or the first field's error. `owned` are the fields the directory holds
    /// (`EmployeeDirectory.ownedFields`); sending them unchanged is allowed, so a client may send its whole form.
    public static func apply(
        _ patch: ProfilePatch, to current: Profile, owned: Set<ProfileField>, directoryKind: String, today: CalendarDate
    ) throws -> Profile {
        var profile = current
        // A directory's value need not meet our rules for edits (a 150-character title, a phone with "ext."):
        // sent back unchanged, it is kept as it is rather than refused by a rule the employee cannot satisfy.
        var patch = patch
        func keepUnchanged(_ field: ProfileField, _ change: inout Change<String>, _ old: String?) {
            guard owned.contains(field), case .set(let text) = change,
                  text.trimmingCharacters(in: .whitespacesAndNewlines) == (old ?? "") else { return }
            change = .keep
        }
        keepUnchanged(.name, &patch.name, current.employee.name)
        keepUnchanged(.surname, &patch.surname, current.employee.surname)
        keepUnchanged(.email, &patch.email, current.employee.email)
        keepUnchanged(.position, &patch.position, current.position)
        keepUnchanged(.birthDate, &patch.birthDate, current.birthDate?.description)
        keepUnchanged(.phone, &patch.phone, current.phone)
        keepUnchanged(.twitter, &patch.twitter, current.twitter)
        keepUnchanged(.linkedin, &patch.linkedin, current.linkedin)

        func ownedCheck(_ field: ProfileField, _ new: String?, _ old: String?) throws {
            if owned.contains(field) && new != old { throw heldByDirectory(field.rawValue, kind: directoryKind) }
        }

        for (field, change, keyPath) in [
            (ProfileField.name, patch.name, \Employee.name), (ProfileField.surname, patch.surname, \Employee.surname),
        ] {
            switch change {
            case .keep: break
            case .clear: throw SGError.invalid(field: field.rawValue, message: "cannot be removed")
            case .set(let text):
                let value = try TextRules.line(text, field: field.rawValue, maximum: maximumNameLength)
                try ownedCheck(field, value, current.employee[keyPath: keyPath])
                profile.employee[keyPath: keyPath] = value
            }
        }

        switch patch.email {
        case .keep: break
        case .clear: throw SGError.invalid(field: "email", message: "cannot be removed")
        case .set(let text):
            let value = try TextRules.email(text, field: "email")
            try ownedCheck(.email, value, current.employee.email)
            profile.employee.email = value
        }

        profile.position = try patch.position.applied(to: current.position) {
            try TextRules.line($0, field: "position", maximum: maximumPositionLength)
        }
        try ownedCheck(.position, profile.position, current.position)

        switch patch.birthDate {
        case .keep: break
        case .clear: profile.birthDate = nil
        case .set(let text):
            // Exactly YYYY-MM-DD, as the contract's `format: date` says (empty text clears, as null does).
            if text.isEmpty {
                profile.birthDate = nil
                break
            }
            let date = try CalendarDate.parse(text, field: "birthDate")
            guard date <= today else {
                throw SGError.invalid(field: "birthDate", message: "\(date) is in the future (today is \(today))")
            }
            guard date.year >= earliestBirthYear else {
                throw SGError.invalid(field: "birthDate", message: "\(date) is before \(earliestBirthYear)")
            }
            profile.birthDate = date
        }
        try ownedCheck(.birthDate, profile.birthDate?.description, current.birthDate?.description)

        profile.phone = try patch.phone.applied(to: current.phone) { try TextRules.phone($0, field: "phone") }
        try ownedCheck(.phone, profile.phone, current.phone)
        profile.twitter = try patch.twitter.applied(to: current.twitter, checkedBy: twitterHandle)
        try ownedCheck(.twitter, profile.twitter, current.twitter)
        profile.linkedin = try patch.linkedin.applied(to: current.linkedin) {
            try TextRules.webAddress($0, field: "linkedin", hosts: ["linkedin.com"])
        }
        try ownedCheck(.linkedin, profile.linkedin, current.linkedin)
        switch patch.language {
        case .keep: break
        case .clear: throw SGError.invalid(field: "language", message: "cannot be removed; one of \(Language.allCases.map(\.rawValue).joined(separator: ", "))")
        case .set(let text): profile.language = try Language.parse(text)
        }
        return profile
    }

    /// A Twitter/X handle, stored without '@': "@ada", "ada" or "https://x.com/ada" all give "ada".
    public static func twitterHandle(_ text: String) throws -> String {
        var value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for prefix in ["https://", "http://", "www.", "twitter.com/", "x.com/", "mobile.twitter.com/"] where value.lowercased().hasPrefix(prefix) {
            value = String(value.dropFirst(prefix.count))
        }
        if value.hasPrefix("@") { value.removeFirst() }
        if value.hasSuffix("/") { value.removeLast() }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
        guard (1...15).contains(value.count), value.allSatisfy(allowed.contains) else {
            throw SGError.invalid(field: "twitter", message: "'\(text)' is not a Twitter handle: 1 to 15 letters, digits or '_', with or without '@'")
        }
        return value
    }

    /// The fields `owned` leaves to the employee, in API order.
    public static func editableFields(owned: Set<ProfileField>) -> [ProfileField] {
        ProfileField.employeeEditable.filter { !owned.contains($0) }
    }
}
