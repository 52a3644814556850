import Foundation

/// How the company can be reached, as the clients show it. Each is nil when not given.
public struct CompanyContact: Sendable, Equatable {
    public var address: String?
    public var phone: String?
    public var email: String?
    public var website: String?

    public init(address: String? = nil, phone: String? = nil, email: String? = nil, website: String? = nil) {
        self.address = address
        self.phone = phone
        self.email = email
        self.website = website
    }
}

/// The company as the clients see it: the settings the holiday rules use, its contact details, and the
/// addresses of its news feeds (RSS or Atom) for the main screen.
public struct Company: Sendable, Equatable {
    public var settings: CompanySettings
    public var contact: CompanyContact
    public var feeds: [String]

    public init(settings: CompanySettings, contact: CompanyContact, feeds: [String] = []) {
        self.settings = settings
        self.contact = contact
        self.feeds = feeds
    }
}

/// A change to the company: nil (or `.keep`) leaves a field as it is. Text is raw until `CompanyRules.apply`.
public struct CompanyPatch: Sendable, Equatable {
    public var name: String?
    public var address: Change<String> = .keep
    public var phone: Change<String> = .keep
    public var email: Change<String> = .keep
    public var website: Change<String> = .keep
    public var workingWeek: WorkingWeek?
    public var defaultAllowance: Int?
    public var timeZone: String?
    public var carryOverCap: HalfDays?
    /// "MM-DD".
    public var carryOverExpiry: String?
    /// A `ProRataPolicy.Method`'s name ("off", "calendar-days", "whole-months").
    public var proRata: String?
    /// A `ProRataPolicy.Rounding`'s name ("up", "down", "nearest").
    public var proRataRounding: String?
    /// Seniority tiers, replacing the company's ([] removes them).
    public var seniority: [SeniorityPolicy.Tier]?
    /// A `SeniorityPolicy.From`'s name ("year", "anniversary").
    public var seniorityFrom: String?
    /// How the year's allowance is earned by employees without a plan of their own.
    public var accrual: AccrualPlan?
    /// Every feed address, in order; nil keeps them.
    public var feeds: [String]?

    public init() {}
}

public enum CompanyRules {
    public static let maximumNameLength = 100
    public static let maximumAddressLength = 300
    /// Each is fetched every 30 minutes and merged on the main screen: a few are plenty.
    public static let maximumFeeds = 10

    /// The company after `patch`, or the first field's error. The default allowance is only range-checked
    /// here; `HolidayService.updateCompany` checks it against the days employees already hold.
    public static func apply(_ patch: CompanyPatch, to company: Company) throws -> Company {
        var result = company
        if let name = patch.name {
            result.settings.name = try TextRules.line(name, field: "name", maximum: maximumNameLength)
        }
        result.contact.address = try patch.address.applied(to: company.contact.address) {
            try TextRules.paragraphs($0, field: "address", maximum: maximumAddressLength)
        }
        result.contact.phone = try patch.phone.applied(to: company.contact.phone) { try TextRules.phone($0, field: "phone") }
        result.contact.email = try patch.email.applied(to: company.contact.email) { try TextRules.email($0, field: "email") }
        result.contact.website = try patch.website.applied(to: company.contact.website) { try TextRules.webAddress($0, field: "website") }
        if let week = patch.workingWeek { result.settings.workingWeek = week }
        if let days = patch.defaultAllowance {
            guard (0...HolidayService.maximumAllowance).contains(days) else {
                throw SGError.invalid(field: "defaultAllowance", message: "must be between 0 and \(HolidayService.maximumAllowance)")
            }
            result.settings.defaultAllowance = days
        }
        if patch.carryOverCap != nil || patch.carryOverExpiry != nil {
            var expiry = (month: result.settings.carryOver.expiryMonth, day: result.settings.carryOver.expiryDay)
            if let code = patch.carryOverExpiry {
                guard let parsed = CarryOverPolicy.expiry(code: code) else {
                    throw SGError.invalid(
                        field: "carryOverExpiry", message: "'\(code)' is not a day of the year as MM-DD, such as 03-31 (29 February is not every year's)")
                }
                expiry = parsed
            }
            guard let policy = CarryOverPolicy(
                cap: patch.carryOverCap ?? result.settings.carryOver.cap, expiryMonth: expiry.month, expiryDay: expiry.day)
            else {
                throw SGError.invalid(field: "carryOverCap", message: "must be between 0 and 366 days, in steps of 0.5")
            }
            result.settings.carryOver = policy
        }
        if let name = patch.proRata {
            guard let method = ProRataPolicy.Method(rawValue: name) else {
                throw SGError.invalid(field: "proRata", message: "'\(name)' is not one of off, calendar-days, whole-months")
            }
            result.settings.proRata.method = method
        }
        if let name = patch.proRataRounding {
            guard let rounding = ProRataPolicy.Rounding(rawValue: name) else {
                throw SGError.invalid(field: "proRataRounding", message: "'\(name)' is not one of up, down, nearest")
            }
            result.settings.proRata.rounding = rounding
        }
        if patch.seniority != nil || patch.seniorityFrom != nil {
            var from = result.settings.seniority.from
            if let name = patch.seniorityFrom {
                guard let parsed = SeniorityPolicy.From(rawValue: name) else {
                    throw SGError.invalid(field: "seniorityFrom", message: "'\(name)' is not one of year, anniversary")
                }
                from = parsed
            }
            guard let policy = SeniorityPolicy(tiers: patch.seniority ?? result.settings.seniority.tiers, from: from) else {
                throw SGError.invalid(
                    field: "seniority",
                    message: "at most \(SeniorityPolicy.maximumTiers) tiers of 1 to 60 years, each once, of 1 to "
                        + "\(HolidayService.maximumAllowance) extra days")
            }
            result.settings.seniority = policy
        }
        if let plan = patch.accrual { result.settings.accrual = plan }
        if let zone = patch.timeZone {
            guard TimeZone(identifier: zone) != nil else {
                throw SGError.invalid(field: "timeZone", message: "'\(zone)' is not a time zone name such as Europe/Madrid or UTC")
            }
            result.settings.timeZoneIdentifier = zone
        }
        if let feeds = patch.feeds { result.feeds = try Self.feeds(feeds) }
        return result
    }

    /// Feed addresses: http(s) web addresses of at most 300 characters, no two the same, at most `maximumFeeds`.
    public static func feeds(_ addresses: [String], field: String = "feeds") throws -> [String] {
        guard addresses.count <= maximumFeeds else {
            throw SGError.invalid(field: field, message: "at most \(maximumFeeds) feeds, not \(addresses.count)")
        }
        var seen = Set<String>()
        return try addresses.map { address in
            let checked = try TextRules.webAddress(address, field: field)
            guard seen.insert(checked.lowercased()).inserted else {
                throw SGError.invalid(field: field, message: "'\(checked)' is given twice")
            }
            return checked
        }
    }

    /// A working week from ISO weekday numbers (1 = Monday ... 7 = Sunday).
    public static func workingWeek(_ days: [Int], field: String = "workingWeek") throws -> WorkingWeek {
        guard Set(days).count == days.count, let week = WorkingWeek(weekdays: Set(days)) else {
            throw SGError.invalid(field: field, message: "one to seven distinct ISO weekdays, 1 = Monday ... 7 = Sunday")
        }
        return week
    }

    /// The working week written as ISO weekday digits ("12345", as sgadmin takes it), under the same rule.
    public static func workingWeek(code: String, field: String) throws -> WorkingWeek {
        // WorkingWeek(code:) reads the digits; a repeated one would shrink the set, which the rule refuses.
        guard let week = WorkingWeek(code: code), week.weekdays.count == code.count else {
            throw SGError.invalid(field: field, message: "one to seven distinct ISO weekdays, 1 = Monday ... 7 = Sunday, e.g. 12345")
        }
        return week
    }
}

/// What the rules read of the company: its working week, default allowance, carry-over, pro rata and time zone.
public struct CompanySettings: Sendable, Equatable {
    public var name: String
    public var workingWeek: WorkingWeek
    public var defaultAllowance: Int
    public var carryOver: CarryOverPolicy
    public var proRata: ProRataPolicy
    public var seniority: SeniorityPolicy
    /// How the year's allowance is earned by employees without a plan of their own.
    public var accrual: AccrualPlan
    /// Whether an employee's allowance depends on their contract (employment dates, working weeks): pro rata or
    /// seniority is on. Then the ledger reads the contract, and changes to it are checked against the balances.
    public var allowanceFollowsContracts: Bool { proRata.method != .off || !seniority.tiers.isEmpty }
    public var timeZoneIdentifier: String {
        didSet { timeZone = TimeZone(identifier: timeZoneIdentifier) ?? .gmt }
    }
    /// The zone of `timeZoneIdentifier` (UTC if the identifier is unknown), made once rather than at each "today".
    public private(set) var timeZone: TimeZone

    public init(
        name: String, workingWeek: WorkingWeek, defaultAllowance: Int, timeZoneIdentifier: String,
        carryOver: CarryOverPolicy = .standard, proRata: ProRataPolicy = .off, seniority: SeniorityPolicy = .none,
        accrual: AccrualPlan = .yearly
    ) {
        self.accrual = accrual
        self.name = name
        self.proRata = proRata
        self.seniority = seniority
        self.workingWeek = workingWeek
        self.defaultAllowance = defaultAllowance
        self.carryOver = carryOver
        self.timeZoneIdentifier = timeZoneIdentifier
        self.timeZone = TimeZone(identifier: timeZoneIdentifier) ?? .gmt
    }
}
