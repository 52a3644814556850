import Foundation
import Hummingbird
import SGCore
import SGStore

/// Everything a handler needs, passed in by `buildApplication`: the core's services, and the server's own.
public struct Services: Sendable {
    public let core: CoreServices
    public let sessions: SessionService
    /// Password resets and changes, refused when `sessions.directory` keeps the passwords.
    public let passwords: PasswordService
    /// Addresses of reverse proxies whose X-Forwarded-For is believed when throttling logins per client
    /// (`IPAddress.canonical` form).
    public let trustedProxies: Set<String>
    /// `GET /v1/me/holidays` bodies as sent, until the next commit or the end of the company's day.
    let yearViews: CommitScopedCache<RenderedYearView.Key, RenderedYearView>
    /// The company's news feeds, as the background refresher last kept them.
    public let feeds: CompanyFeedService
    /// Each employee's budget of changes; nil: unbounded.
    public let writeLimit: WriteRateLimit?
    /// For the health route and the write-ahead log's checkpoints; handlers use the services.
    let database: AppDatabase
    /// What `GET /metrics` serves; nil: nothing is counted.
    public let metrics: ServerMetrics?
    /// Idempotency-Keys whose change is under way.
    let keysInFlight = KeysInFlight()

    public init(
        database: AppDatabase, clock: any NowProvider = SystemClock(), directory: (any EmployeeDirectory)? = nil,
        sessionLifetimes: SessionLifetimes = SessionLifetimes(), throttle: LoginThrottle? = nil, trustedProxies: Set<String> = [],
        resetThrottle: LoginThrottle? = nil, passwordChecks: PasswordCheckLimit? = nil, writeLimit: WriteRateLimit? = nil,
        metrics: ServerMetrics? = nil
    ) {
        self.database = database
        self.metrics = metrics
        if let metrics { database.reportMetrics(to: metrics.database) }
        self.writeLimit = writeLimit
        core = database.services(clock: clock)
        sessions = core.sessions(
            store: database.sessionStore, directory: directory ?? LocalAccountDirectory(accounts: database.accountStore),
            lifetimes: sessionLifetimes, throttle: throttle, checks: passwordChecks)
        passwords = core.passwords.served(
            by: sessions.directory, loginThrottle: throttle, resetThrottle: resetThrottle, checks: passwordChecks)
        self.trustedProxies = Set(trustedProxies.map { IPAddress.canonical($0) ?? $0 })
        yearViews = database.makeCache(of: RenderedYearView.self, by: RenderedYearView.Key.self) { $0.employeeID }
        feeds = CompanyFeedService(store: database.companyFeedStore, clock: clock)
    }

    var holidays: HolidayService { core.holidays }
    var company: CompanyService { core.company }
    var people: PeopleService { core.people }
    var notices: NoticeService { core.notices }
    var devices: DeviceService { core.devices }
    var webhooks: WebhookService { core.webhooks }
}

/// A `GET /v1/me/holidays` body as sent, and the company's day it was rendered on: what it says of each request
/// (may it still be cancelled?) holds for that day only.
struct RenderedYearView: Sendable {
    struct Key: Hashable, Sendable {
        let employeeID: Int64
        /// As asked: nil is the company's current year.
        let year: Int?
    }

    let today: CalendarDate
    let timeZone: TimeZone
    /// In an allocation of its own size: a ByteBuffer's storage is a power of two, so a body of 2.5 KB (the
    /// benchmark's) held 4 KB, and the 10,000 views a server keeps half as much again. Each response copies it.
    let body: [UInt8]

    func isCurrent(at instant: Date) -> Bool { today.isToday(at: instant, in: timeZone) }
}
