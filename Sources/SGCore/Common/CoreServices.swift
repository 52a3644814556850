import Foundation

/// The services of the product's use cases, over one store: what `sgserver` and `sgadmin` both call.
public struct CoreServices: Sendable {
    public let holidays: HolidayService
    public let company: CompanyService
    public let people: PeopleService
    public let notices: NoticeService
    public let devices: DeviceService
    public let accounts: AccountService
    public let delivery: DeliveryService
    public let webhooks: WebhookService
    /// Local passwords as `sgadmin` sets them; the server serves `passwords.served(by:…)`.
    public let passwords: PasswordService
    public let leaveTypes: LeaveTypeService
    /// Who is off, and the calendar feeds.
    public let absences: AbsenceService
    public let teams: TeamService

    public init(
        holidays: HolidayService, company: CompanyService, people: PeopleService, notices: NoticeService,
        devices: DeviceService, accounts: AccountService, delivery: DeliveryService, webhooks: WebhookService,
        passwords: PasswordService, leaveTypes: LeaveTypeService, absences: AbsenceService, teams: TeamService
    ) {
        self.holidays = holidays
        self.company = company
        self.people = people
        self.notices = notices
        self.devices = devices
        self.accounts = accounts
        self.delivery = delivery
        self.webhooks = webhooks
        self.passwords = passwords
        self.leaveTypes = leaveTypes
        self.absences = absences
        self.teams = teams
    }

    /// Logins checked by `directory` and sessions, over the same accounts.
    public func sessions(
        store: any SessionStore, directory: any EmployeeDirectory, lifetimes: SessionLifetimes = SessionLifetimes(),
        throttle: LoginThrottle? = nil, checks: PasswordCheckLimit? = nil
    ) -> SessionService {
        SessionService(
            store: store, accounts: accounts, directory: directory, accessLifetime: lifetimes.access,
            refreshLifetime: lifetimes.refresh, clock: holidays.clock, throttle: throttle, checks: checks)
    }
}
